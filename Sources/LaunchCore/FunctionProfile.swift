/// The function profiles of a result (`--functions`): one per phase, from one representative run
/// (the run whose launch count is the median: instruction counts repeat, so one run says it all).
public struct FunctionProfiles: Codable, Equatable, Sendable {
    /// The most functions a result keeps per phase (``PhaseFunctions/functionCount`` says how many there were).
    public static let maximumFunctionsPerPhase = 200
    /// Functions always kept per phase (up to ``maximumFunctionsPerPhase``), whatever their share.
    public static let alwaysKeptPerPhase = 20
    /// Past ``alwaysKeptPerPhase``, a function is kept when its self count is at least this share of
    /// the phase's (1 in 10,000): the rest cannot explain a change a gate would flag.
    public static let keptShare = 0.0001
    /// The run (1-based ``RunRecord/index``) the profiles are from.
    public var run: Int
    public var phases: [PhaseFunctions]

    public init(run: Int, phases: [PhaseFunctions]) {
        self.run = run
        self.phases = phases
    }

    /// The functions of `ranked` (the most self instructions first) a result keeps for a phase of
    /// `phaseInstructions`: the first ``alwaysKeptPerPhase``, then those with at least ``keptShare``
    /// of the phase, at most ``maximumFunctionsPerPhase`` in all.
    public static func kept(_ ranked: [FunctionCost<InstructionUnit>], phaseInstructions: Int) -> [FunctionCost<InstructionUnit>] {
        let floor = Double(phaseInstructions) * keptShare
        return Array(
            ranked.enumerated().prefix { i, cost in i < alwaysKeptPerPhase || Double(cost.selfCost) >= floor }.map(\.element)
                .prefix(maximumFunctionsPerPhase))
    }

    /// The profile of the phase at `path`, if there is one.
    public func phase(_ path: String) -> PhaseFunctions? {
        phases.first { $0.phase == path }
    }
}

/// One run's function profile before it is summarized into a result: for each phase of the run
/// (by its index in ``RunRecord/phases``), its functions with their mangled names and objects.
/// Kept in memory only (never written): ``RunRecord/functionProfile``.
public struct RunFunctionProfile: Equatable, Sendable {
    /// One function's counts with the object file it is in.
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var object: String
        public var selfInstructions: Int
        public var inclusiveInstructions: Int
        public var calls: Int

        public init(name: String, object: String, selfInstructions: Int, inclusiveInstructions: Int, calls: Int) {
            self.name = name
            self.object = object
            self.selfInstructions = selfInstructions
            self.inclusiveInstructions = inclusiveInstructions
            self.calls = calls
        }
    }

    /// By phase index; `nil` where the phase had no bounding dumps.
    public var phases: [[Entry]?]
    /// The measured program's object file (as Callgrind names it): its functions are the program's.
    public var programObject: String?
    /// By phase index, the phase's call graph (flame graphs' stacks are made from it); `nil` where the
    /// phase had no bounding dumps. Its function indices are into ``graphFunctions``.
    public var callGraphs: [PhaseCallGraph?] = []
    /// The functions the call graphs name: mangled name and object file.
    public var graphFunctions: [GraphFunction] = []

    /// A function of a call graph (and of a Callgrind file's profile): its name as Callgrind wrote
    /// it, without a recursion level, and its object file.
    public struct GraphFunction: Equatable, Sendable {
        public var name: String
        public var object: String

        public init(name: String, object: String) {
            self.name = name
            self.object = object
        }
    }

    /// One phase's call graph: each function's own instructions, and by caller, by callee, the
    /// instructions of its calls (inclusive of what the callee called; calls to itself left out).
    public struct PhaseCallGraph: Equatable, Sendable {
        public var selfInstructions: [Int: Int]
        public var calls: [Int: [Int: Int]]

        public init(selfInstructions: [Int: Int], calls: [Int: [Int: Int]]) {
            self.selfInstructions = selfInstructions
            self.calls = calls
        }
    }

    public init(phases: [[Entry]?], programObject: String?) {
        self.phases = phases
        self.programObject = programObject
    }
}

/// One function's instructions in one phase (`--functions`, docs/functions.md).
///
/// In a result file it is a compact array, `[name, where, self, inclusive, calls]`, with `where`
/// `"p"` for the measured program's own code and `"s"` for a system library's (libc, the Swift
/// runtime and standard library, Foundation, libpng, libxml2…).
public struct FunctionCost: Codable, Equatable, Sendable {
    /// The demangled name (the mangled one when it could not be demangled).
    public var name: String
    /// `true` for the measured program's own code, `false` for a system library's.
    public var inProgram: Bool
    /// Instructions executed in the function's own code.
    public var selfInstructions: Int
    /// Its own and those of everything it called (calls to itself not counted twice).
    public var inclusiveInstructions: Int
    /// Times it was called from another function.
    public var calls: Int

    public init(name: String, inProgram: Bool, selfInstructions: Int, inclusiveInstructions: Int, calls: Int) {
        self.name = name
        self.inProgram = inProgram
        self.selfInstructions = selfInstructions
        self.inclusiveInstructions = inclusiveInstructions
        self.calls = calls
    }

    public init(from decoder: any Decoder) throws {
        var fields = try decoder.unkeyedContainer()
        name = try fields.decode(String.self)
        inProgram = try CodePlace.decode(&fields)
        selfInstructions = try fields.decode(Int.self)
        inclusiveInstructions = try fields.decode(Int.self)
        calls = try fields.decode(Int.self)
        guard selfInstructions >= 0, inclusiveInstructions >= 0, calls >= 0 else {
            throw DecodingError.dataCorruptedError(in: fields, debugDescription: "a function's counts must not be negative")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.unkeyedContainer()
        try fields.encode(name)
        try fields.encode(CodePlace.code(inProgram))
        try fields.encode(selfInstructions)
        try fields.encode(inclusiveInstructions)
        try fields.encode(calls)
    }
}

/// The function profile of one phase of a result: its functions, the most self instructions first.
public struct PhaseFunctions: Codable, Equatable, Sendable {
    /// The phase's path (`drawing/keys`: its name with its parents', as the report's rows have it).
    public var phase: String
    /// Every instruction of the phase, counted from the dumps that bound it.
    public var instructions: Int
    /// Functions listed (``FunctionProfiles/kept(_:phaseInstructions:)``): the most self instructions first.
    public var functions: [FunctionCost]
    /// Functions with any instruction in the phase, listed or not.
    public var functionCount: Int

    public init(phase: String, instructions: Int, functions: [FunctionCost], functionCount: Int) {
        self.phase = phase
        self.instructions = instructions
        self.functions = functions
        self.functionCount = functionCount
    }
}

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
    public static func kept(_ ranked: [FunctionCost], phaseInstructions: Int) -> [FunctionCost] {
        let floor = Double(phaseInstructions) * keptShare
        return Array(
            ranked.enumerated().prefix { i, cost in i < alwaysKeptPerPhase || Double(cost.selfInstructions) >= floor }.map(\.element)
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

    /// A function of a call graph.
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

/// Where a function's code is, as a compact result array says it: `"p"` the measured program's,
/// `"s"` a system library's (or the kernel's).
enum CodePlace {
    static func code(_ inProgram: Bool) -> String { inProgram ? "p" : "s" }

    /// Reads the next field, `"p"` (`true`) or `"s"` (`false`); anything else is an error.
    static func decode(_ fields: inout any UnkeyedDecodingContainer) throws -> Bool {
        let place = try fields.decode(String.self)
        guard place == "p" || place == "s" else {
            throw DecodingError.dataCorruptedError(in: fields, debugDescription: "expected \"p\" (program) or \"s\" (system), found \"\(place)\"")
        }
        return place == "p"
    }
}

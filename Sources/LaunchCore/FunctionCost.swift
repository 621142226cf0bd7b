/// What a function's cost is counted in: instructions (`--functions`, under Callgrind) or wall-clock
/// samples (`--sample`, perf's `cpu-clock`). Its ``name`` is a phase's total's key in a result file
/// and the `unit` of the result's ``ResultStacks``.
public protocol CostUnit: Sendable {
    /// `instructions` or `samples`.
    static var name: String { get }
    /// Whether a function's calls are counted (Callgrind counts them; samples cannot).
    static var countsCalls: Bool { get }
    /// Whether a function's inclusive count is at least its self count by construction (a sample
    /// counts once for every function on its stack; Callgrind's inclusive costs leave out recursion).
    static var inclusiveHoldsSelf: Bool { get }
}

/// Instructions executed (`--functions`, docs/functions.md).
public enum InstructionUnit: CostUnit {
    public static let name = "instructions"
    public static let countsCalls = true
    public static let inclusiveHoldsSelf = false
}

/// Wall-clock samples (`--sample`, docs/sampling.md).
public enum SampleUnit: CostUnit {
    public static let name = "samples"
    public static let countsCalls = false
    public static let inclusiveHoldsSelf = true
}

/// One function's cost in one phase, in `Unit`.
///
/// In a result file it is a compact array, `[name, where, self, inclusive]` and, for instructions,
/// `calls` last; `where` is `"p"` for the measured program's own code and `"s"` for a system
/// library's (libc, the Swift runtime and standard library, libpng, libxml2…) or the kernel's.
public struct FunctionCost<Unit: CostUnit>: Codable, Equatable, Sendable {
    /// The demangled name (the mangled one when it could not be demangled).
    public var name: String
    /// `true` for the measured program's own code, `false` for a system library's or the kernel's.
    public var inProgram: Bool
    /// The function's own cost: instructions of its own code, or samples with it running (the stack's leaf).
    public var selfCost: Int
    /// Its own and its callees' (instructions: calls to itself not counted twice; samples: those
    /// with the function anywhere on the stack, once each).
    public var inclusiveCost: Int
    /// Times it was called from another function (instructions); `nil` for samples.
    public var calls: Int?

    public init(name: String, inProgram: Bool, selfCost: Int, inclusiveCost: Int, calls: Int? = nil) {
        self.name = name
        self.inProgram = inProgram
        self.selfCost = selfCost
        self.inclusiveCost = inclusiveCost
        self.calls = Unit.countsCalls ? calls ?? 0 : nil
    }

    public init(from decoder: any Decoder) throws {
        var fields = try decoder.unkeyedContainer()
        name = try fields.decode(String.self)
        inProgram = try CodePlace.decode(&fields)
        selfCost = try fields.decode(Int.self)
        inclusiveCost = try fields.decode(Int.self)
        calls = Unit.countsCalls ? try fields.decode(Int.self) : nil
        guard selfCost >= 0, inclusiveCost >= 0, (calls ?? 0) >= 0 else {
            throw DecodingError.dataCorruptedError(in: fields, debugDescription: "a function's counts must not be negative")
        }
        guard !Unit.inclusiveHoldsSelf || inclusiveCost >= selfCost else {
            throw DecodingError.dataCorruptedError(in: fields, debugDescription: "a function's self \(Unit.name) must not be more than its inclusive ones")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.unkeyedContainer()
        try fields.encode(name)
        try fields.encode(CodePlace.code(inProgram))
        try fields.encode(selfCost)
        try fields.encode(inclusiveCost)
        if Unit.countsCalls { try fields.encode(calls ?? 0) }
    }
}

/// One phase path's functions, in `Unit`: the most self cost first. In a result file its total is
/// under the unit's name (`{"phase": "drawing", "instructions": 1234, "functions": [...], "functionCount": 87}`).
public struct PhaseFunctionCosts<Unit: CostUnit>: Codable, Equatable, Sendable {
    /// The phase's path (`drawing/keys`: its name with its parents', as the report's rows have it).
    public var phase: String
    /// The phase's whole cost, its children's included: every instruction counted from the dumps
    /// that bound it, or every sample that fell into it over all runs.
    public var total: Int
    /// The functions kept, the most self cost first.
    public var functions: [FunctionCost<Unit>]
    /// Functions with any cost in the phase, kept or not.
    public var functionCount: Int

    public init(phase: String, total: Int, functions: [FunctionCost<Unit>], functionCount: Int) {
        self.phase = phase
        self.total = total
        self.functions = functions
        self.functionCount = functionCount
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        static var phase: Key { Key("phase") }
        static var functions: Key { Key("functions") }
        static var functionCount: Key { Key("functionCount") }
        static var total: Key { Key(Unit.name) }
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Key.self)
        phase = try fields.decode(String.self, forKey: .phase)
        total = try fields.decode(Int.self, forKey: .total)
        functions = try fields.decode([FunctionCost<Unit>].self, forKey: .functions)
        functionCount = try fields.decode(Int.self, forKey: .functionCount)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Key.self)
        try fields.encode(phase, forKey: .phase)
        try fields.encode(total, forKey: .total)
        try fields.encode(functions, forKey: .functions)
        try fields.encode(functionCount, forKey: .functionCount)
    }
}

/// A phase's function profile in instructions (`--functions`, ``FunctionProfiles``).
public typealias PhaseFunctions = PhaseFunctionCosts<InstructionUnit>
/// A phase's function profile in samples (`--sample`, ``SampleProfiles``).
public typealias PhaseSamples = PhaseFunctionCosts<SampleUnit>

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

extension FunctionCost {
    /// `costs` the most self cost first, then the most inclusive, then by name.
    public static func ranked(_ costs: [FunctionCost]) -> [FunctionCost] {
        costs.sorted {
            ($0.selfCost, $0.inclusiveCost) != ($1.selfCost, $1.inclusiveCost)
                ? ($0.selfCost, $0.inclusiveCost) > ($1.selfCost, $1.inclusiveCost) : $0.name < $1.name
        }
    }
}

import LaunchCore

/// The function costs of a Callgrind output file written with `--combine-dumps=yes`: one part per
/// dump, each with what triggered it and, per function, the instructions since the previous dump
/// (``CallgrindFunctionReader`` reads it).
public struct CallgrindProfile: Equatable, Sendable {
    /// A function's counts in one part or one phase.
    public struct Costs: Equatable, Sendable {
        /// Instructions in the function's own code.
        public var selfInstructions = 0
        /// Instructions of the calls it made (to other functions: a call to itself is inside its own count).
        public var calleeInstructions = 0
        /// Times it was called.
        public var calls = 0

        public init(selfInstructions: Int = 0, calleeInstructions: Int = 0, calls: Int = 0) {
            self.selfInstructions = selfInstructions
            self.calleeInstructions = calleeInstructions
            self.calls = calls
        }

        /// Its own instructions and its callees'.
        public var inclusiveInstructions: Int {
            let (sum, overflow) = selfInstructions.addingReportingOverflow(calleeInstructions)
            return overflow ? Int.max : sum
        }

        /// `self` plus `other`, saturating (a sum past `Int.max` cannot come from a real file: the
        /// reader refuses counts that overflow).
        mutating func add(_ other: Costs) {
            selfInstructions = Self.sum(selfInstructions, other.selfInstructions)
            calleeInstructions = Self.sum(calleeInstructions, other.calleeInstructions)
            calls = Self.sum(calls, other.calls)
        }

        static func sum(_ a: Int, _ b: Int) -> Int {
            let (s, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : s
        }
    }

    /// One dump.
    public struct Part: Equatable, Sendable {
        /// The client request's label (`launchprof begin 0 3`), or `nil` for another trigger.
        public var label: String?
        /// The part's `summary:`: every instruction since the previous dump.
        public var instructions: Int
        /// By function (an index into ``CallgrindProfile/functions``).
        public var costs: [Int: Costs]
        /// The call graph's edges: by caller, by callee (indices into ``CallgrindProfile/functions``), the
        /// instructions of the calls (the callee's and everything it called). Calls to itself are left out.
        public var calls: [Int: [Int: Int]] = [:]
    }

    /// The functions the parts' indices are into: each one's name as Callgrind wrote it, without a
    /// recursion level (`'2`), and its object file.
    public var functions: [RunFunctionProfile.GraphFunction]
    public var parts: [Part]

    /// The index of the first part with `label`.
    public func part(labelled label: String) -> Int? {
        parts.firstIndex { $0.label == label }
    }

    /// The costs of parts `range` added up, by function, and their instructions.
    public func costs(of range: Range<Int>) -> (costs: [Int: Costs], instructions: Int) {
        var total: [Int: Costs] = [:]
        var instructions = 0
        for part in parts[range.clamped(to: parts.indices)] {
            instructions = Costs.sum(instructions, part.instructions)
            for (function, costs) in part.costs { total[function, default: Costs()].add(costs) }
        }
        return (total, instructions)
    }

    /// The call graph of parts `range` added up: by caller, by callee, the calls' instructions.
    public func calls(of range: Range<Int>) -> [Int: [Int: Int]] {
        var total: [Int: [Int: Int]] = [:]
        for part in parts[range.clamped(to: parts.indices)] {
            for (caller, callees) in part.calls {
                for (callee, count) in callees { total[caller, default: [:]][callee, default: 0] = Costs.sum(total[caller]?[callee] ?? 0, count) }
            }
        }
        return total
    }
}

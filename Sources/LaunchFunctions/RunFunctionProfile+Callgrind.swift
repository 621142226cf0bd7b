import LaunchCore

/// Where a phase's instructions are in a Callgrind file: after the dump `begin` (from the start of
/// the process when `nil`) up to and including the dump `end`.
public struct PhaseDumps: Equatable, Sendable {
    public var begin: String?
    public var end: String

    public init(begin: String?, end: String) {
        self.begin = begin
        self.end = end
    }
}

extension RunFunctionProfile {
    /// Each phase's functions from `profile`: the parts after its begin dump through its end dump
    /// added up (so a parent's profile holds its children's, as its count does). A phase whose
    /// dumps are missing (or that has no `dumps`) gets none.
    /// Each phase's call graph is kept too (``callGraphs``), for its flame graph's stacks.
    public init(_ profile: CallgrindProfile, dumps: [PhaseDumps?], programObject: String?) {
        let ranges = dumps.map { bounds -> Range<Int>? in
            guard let bounds, let end = profile.part(labelled: bounds.end) else { return nil }
            var first = 0
            if let begin = bounds.begin {
                guard let at = profile.part(labelled: begin), at <= end else { return nil }
                first = at + 1
            }
            return first..<(end + 1)
        }
        var phases: [[Entry]?] = []
        var graphs: [PhaseCallGraph?] = []
        for range in ranges {
            guard let range else {
                phases.append(nil)
                graphs.append(nil)
                continue
            }
            let costs = profile.costs(of: range).costs
            phases.append(Self.entries(costs, profile.functions))
            graphs.append(
                PhaseCallGraph(
                    selfInstructions: costs.compactMapValues { $0.selfInstructions > 0 ? $0.selfInstructions : nil }, calls: profile.calls(of: range)))
        }
        self.init(phases: phases, programObject: programObject)
        callGraphs = graphs
        graphFunctions = profile.functions
    }

    static func entries(_ costs: [Int: CallgrindProfile.Costs], _ functions: [GraphFunction]) -> [Entry] {
        costs.compactMap { index, cost in
            guard cost.selfInstructions > 0 || cost.calleeInstructions > 0 || cost.calls > 0 else { return nil }
            let function = functions[index]
            return Entry(
                name: function.name, object: function.object, selfInstructions: cost.selfInstructions,
                inclusiveInstructions: cost.inclusiveInstructions, calls: cost.calls)
        }
    }
}

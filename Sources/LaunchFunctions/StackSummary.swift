import LaunchCore

/// Makes a result's ``ResultStacks`` from its runs' call graphs (`--functions`): the same
/// representative run as the function profiles, each phase path's call graph (phases sharing a path
/// added up) turned into stacks (``CallStackReconstruction``), names demangled.
public enum StackSummary {
    /// The stacks of `runs`, or `nil` when none of them has a call graph.
    public static func stacks(
        _ runs: [RunRecord], demangler: Demangler = .onPath(), reconstruction: CallStackReconstruction = .init()
    ) -> ResultStacks? {
        guard let run = FunctionSummary.representativeRun(runs), let profile = run.functionProfile, !profile.callGraphs.isEmpty else { return nil }
        let graphs = graphsByPath(run, profile)
        var frames = FrameTable()
        var phases: [ResultStacks.Phase] = []
        for (path, graph) in graphs {
            let stacks = kept(reconstruction.stacks(graph))
            phases.append(
                ResultStacks.Phase(
                    phase: path, stacks: stacks.map { ResultStacks.Stack(weight: $0.weight, frames: $0.frames.map { frames.index(of: $0) }) }))
        }
        let functions = profile.graphFunctions
        let names = demangler.demangle(frames.functions.compactMap { $0 >= 0 && $0 < functions.count ? functions[$0].name : nil })
        let frameNames = frames.functions.map { index in
            guard index != CallStackReconstruction.narrowCallees else { return CallStackReconstruction.narrowCalleesName }
            return index >= 0 && index < functions.count ? FunctionSummary.readableName(functions[index].name, object: functions[index].object, names) : "?"
        }
        return ResultStacks(run: run.index, unit: "instructions", reconstructed: true, frames: frameNames, phases: phases)
    }

    /// The heaviest stacks (`stacks` come heaviest first) up to ``ResultStacks/maximumStacksPerPhase``;
    /// the weight of the others kept under their root frame, as ``CallStackReconstruction/narrowCallees``.
    static func kept(_ stacks: [(frames: [Int], weight: Int)]) -> [(frames: [Int], weight: Int)] {
        let limit = ResultStacks.maximumStacksPerPhase - 64
        guard stacks.count > ResultStacks.maximumStacksPerPhase else { return stacks }
        var rest: [Int: Int] = [:]
        for stack in stacks[limit...] { rest[stack.frames[0], default: 0] += stack.weight }
        return Array(stacks[..<limit]) + rest.sorted { $0.key < $1.key }.prefix(64).map { ([$0.key, CallStackReconstruction.narrowCallees], $0.value) }
    }

    /// The run's call graphs by phase path, in the order the paths first ran; graphs sharing a path added up.
    static func graphsByPath(_ run: RunRecord, _ profile: RunFunctionProfile) -> [(path: String, graph: RunFunctionProfile.PhaseCallGraph)] {
        let paths = FunctionSummary.paths(run.phases)
        var order: [String] = []
        var merged: [String: RunFunctionProfile.PhaseCallGraph] = [:]
        for (i, path) in paths.enumerated() {
            guard i < profile.callGraphs.count, let graph = profile.callGraphs[i] else { continue }
            guard var known = merged[path] else {
                order.append(path)
                merged[path] = graph
                continue
            }
            known.selfInstructions.merge(graph.selfInstructions, uniquingKeysWith: CallgrindProfile.Costs.sum)
            known.calls.merge(graph.calls) { $0.merging($1, uniquingKeysWith: CallgrindProfile.Costs.sum) }
            merged[path] = known
        }
        return order.compactMap { path in merged[path].map { (path, $0) } }
    }

    /// The functions stacks name, each numbered once in the order first met.
    struct FrameTable {
        var functions: [Int] = []
        var numbers: [Int: Int] = [:]

        mutating func index(of function: Int) -> Int {
            if let known = numbers[function] { return known }
            numbers[function] = functions.count
            functions.append(function)
            return functions.count - 1
        }
    }
}

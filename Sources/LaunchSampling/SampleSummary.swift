import LaunchCore
import LaunchFlameGraphs
import LaunchFunctions

/// Makes a result's ``SampleProfiles`` from a session's placed samples: frames named (demangled,
/// an address without a symbol named with its file), each phase path's samples counted with its
/// children's (a sample in `drawing/keys` is also one of `drawing`), its functions ranked by self
/// samples, and the median run's samples in time for the Chrome trace.
public struct SampleSummary {
    public let collection: SampleCollection
    public let placed: [[PlacedSample]]
    /// Every frame's readable name (``SampleCollection/frames`` order).
    public let names: [String]
    /// Whether each frame is the measured program's own code.
    public let inProgram: [Bool]

    public init(_ collection: SampleCollection, demangler: Demangler = .onPath()) {
        self.collection = collection
        placed = collection.placed()
        let demangled = demangler.demangle(collection.frames.compactMap(\.symbol))
        names = collection.frames.map { Self.name($0, demangled) }
        let program = collection.frames.first { $0.symbol == "main" && !$0.isKernel }?.object
        inProgram = collection.frames.map { frame in
            guard let object = frame.object, !object.hasPrefix("[") else { return false }
            return FunctionOrigin.isProgram(name: frame.symbol ?? "", object: object, programObject: program)
        }
    }

    /// A frame's name: its symbol demangled; `libpng16.so.16 0x6094` for an address without a symbol.
    static func name(_ frame: PerfFrame, _ demangled: [String: String]) -> String {
        if let symbol = frame.symbol { return demangled[symbol] ?? symbol }
        let hex = "0x" + String(frame.address, radix: 16)
        guard let object = frame.object, let file = object.split(separator: "/").last else { return "[unknown] \(hex)" }
        return "\(file) \(hex)"
    }

    /// A sample's frames without the unknown ones a broken frame-pointer chain ends with, leaf first.
    func stack(_ sample: PlacedSample) -> [Int32] {
        let known = sample.frames.filter { !collection.frames[Int($0)].isUnknown }
        return known.isEmpty ? Array(sample.frames.prefix(1)) : known
    }

    /// The phase paths of `record` (`drawing/keys`), by phase index.
    static func paths(_ record: RunRecord) -> [String] {
        var paths: [String] = []
        for phase in record.phases {
            let parent = phase.parent.flatMap { $0 >= 0 && $0 < paths.count ? paths[$0] : nil }
            paths.append(parent.map { "\($0)/\(phase.name)" } ?? phase.name)
        }
        return paths
    }

    /// The phase at `index` and its ancestors' indices (a parent's index is below its child's).
    static func lineage(_ record: RunRecord, _ index: Int) -> [Int] {
        var chain: [Int] = []
        var current: Int? = index
        while let i = current, i >= 0, i < record.phases.count, chain.count < record.phases.count {
            chain.append(i)
            current = record.phases[i].parent.flatMap { $0 < i ? $0 : nil }
        }
        return chain
    }

    /// Each placed sample of the launched process in a phase, with the paths it counts for.
    private func phaseSamples() -> (order: [String], samples: [(paths: [String], sample: PlacedSample)]) {
        var order: [String] = []
        var seen: Set<String> = []
        var out: [(paths: [String], sample: PlacedSample)] = []
        for (run, samples) in placed.enumerated() {
            let record = collection.records[run]
            let paths = Self.paths(record)
            for path in paths where seen.insert(path).inserted { order.append(path) }
            for sample in samples {
                guard let phase = sample.phase else { continue }
                var unique: [String] = []
                for i in Self.lineage(record, phase) where !unique.contains(paths[i]) { unique.append(paths[i]) }
                out.append((unique, sample))
            }
        }
        return (order, out)
    }

    /// The result's samples: per phase path, the functions with the most self samples.
    public func profiles(setup: SamplingSetup) -> SampleProfiles {
        let (order, samples) = phaseSamples()
        var counts: [String: Int] = [:]
        // By path, then by function name: (self samples, inclusive samples, the program's code).
        var functions: [String: [String: FunctionCost<SampleUnit>]] = [:]
        for (paths, sample) in samples {
            let stack = stack(sample).map { Int($0) }
            var inStack: [String: Bool] = [:]
            for frame in stack where inStack[names[frame]] == nil { inStack[names[frame]] = inProgram[frame] }
            let leaf = stack.first.map { names[$0] }
            for path in paths {
                counts[path, default: 0] += 1
                for (name, program) in inStack {
                    var function = functions[path]?[name] ?? FunctionCost<SampleUnit>(name: name, inProgram: program, selfCost: 0, inclusiveCost: 0)
                    function.inclusiveCost += 1
                    if name == leaf { function.selfCost += 1 }
                    functions[path, default: [:]][name] = function
                }
            }
        }
        let phases = order.compactMap { path -> PhaseSamples? in
            guard let total = counts[path] else { return nil }
            let ranked = FunctionCost.ranked(Array((functions[path] ?? [:]).values))
            return PhaseSamples(
                phase: path, total: total, functions: Array(ranked.prefix(SampleProfiles.maximumFunctionsPerPhase)), functionCount: ranked.count)
        }
        let all = placed.reduce(0) { $0 + $1.count }
        let outside = placed.joined().filter { $0.inLaunchedProcess && $0.phase == nil }.count
        return SampleProfiles(
            rate: setup.rate, event: setup.event, runs: collection.records.count, samples: all, outsidePhases: outside, phases: phases,
            timeline: timeline())
    }

    /// Each phase path's stacks over all runs, root first, weighted in samples (a parent's stacks
    /// hold its children's): what the flame graphs of `--sample` are drawn from.
    public func stackProfile() -> StackProfile {
        let (order, samples) = phaseSamples()
        var weights: [String: [[String]: UInt64]] = [:]
        for (paths, sample) in samples {
            let frames = stack(sample).reversed().map { names[Int($0)] }
            for path in paths { weights[path, default: [:]][frames, default: 0] += 1 }
        }
        let phases = order.compactMap { path in
            weights[path].map { byStack in PhaseStacks(phase: path, stacks: byStack.map { WeightedStack(frames: $0.key, weight: $0.value) }).merged() }
        }
        return StackProfile(unit: .samples, phases: phases)
    }

    /// The median run's samples (by total; ties by index) as a node table, for the Chrome trace.
    func timeline() -> SampleTimeline? {
        let order = placed.indices.filter { !placed[$0].isEmpty }.sorted {
            (collection.records[$0].total, collection.records[$0].index) < (collection.records[$1].total, collection.records[$1].index)
        }
        guard !order.isEmpty else { return nil }
        let run = order[(order.count - 1) / 2]
        var nameIndex: [String: Int] = [:]
        var timelineNames: [String] = []
        var nodes: [[Int]] = []
        var nodeIndex: [[Int]: Int] = [:]
        var samples: [[Double]] = []
        for sample in placed[run].prefix(SampleProfiles.maximumTimelineSamples) {
            var parent = -1
            for frame in stack(sample).reversed() {
                let name = names[Int(frame)]
                let n: Int
                if let known = nameIndex[name] {
                    n = known
                } else {
                    n = timelineNames.count
                    timelineNames.append(name)
                    nameIndex[name] = n
                }
                let key = [n, parent]
                if let known = nodeIndex[key] {
                    parent = known
                } else {
                    nodes.append(key)
                    nodeIndex[key] = nodes.count - 1
                    parent = nodes.count - 1
                }
            }
            samples.append([sample.seconds, Double(sample.thread), Double(parent)])
        }
        return SampleTimeline(run: collection.records[run].index, names: timelineNames, nodes: nodes, samples: samples)
    }
}

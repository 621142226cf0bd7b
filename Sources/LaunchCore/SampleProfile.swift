/// One function's wall-clock samples in one phase (`--sample`, docs/sampling.md).
///
/// In a result file it is a compact array, `[name, where, self, inclusive]`, with `where` `"p"` for
/// the measured program's own code and `"s"` for a system library's or the kernel's.
public struct SampledFunction: Codable, Equatable, Sendable {
    /// The demangled name (the mangled one when it could not be demangled).
    public var name: String
    /// `true` for the measured program's own code, `false` for a system library's or the kernel's.
    public var inProgram: Bool
    /// Samples taken while the function itself was running (it was the stack's leaf).
    public var selfSamples: Int
    /// Samples with the function anywhere on the stack (counted once per sample).
    public var inclusiveSamples: Int

    public init(name: String, inProgram: Bool, selfSamples: Int, inclusiveSamples: Int) {
        self.name = name
        self.inProgram = inProgram
        self.selfSamples = selfSamples
        self.inclusiveSamples = inclusiveSamples
    }

    public init(from decoder: any Decoder) throws {
        var fields = try decoder.unkeyedContainer()
        name = try fields.decode(String.self)
        inProgram = try CodePlace.decode(&fields)
        selfSamples = try fields.decode(Int.self)
        inclusiveSamples = try fields.decode(Int.self)
        guard selfSamples >= 0, inclusiveSamples >= selfSamples else {
            throw DecodingError.dataCorruptedError(
                in: fields, debugDescription: "a function's samples must not be negative, nor its self samples more than its inclusive ones")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.unkeyedContainer()
        try fields.encode(name)
        try fields.encode(CodePlace.code(inProgram))
        try fields.encode(selfSamples)
        try fields.encode(inclusiveSamples)
    }
}

/// The samples of one phase path, over every sampled run: its functions, the most self samples first.
public struct PhaseSamples: Codable, Equatable, Sendable {
    /// The phase's path (`drawing/keys`), as the report's rows have it.
    public var phase: String
    /// Samples that fell into the phase (its children's included), over all runs.
    public var samples: Int
    /// The functions kept (at most ``SampleProfiles/maximumFunctionsPerPhase``), the most self samples first.
    public var functions: [SampledFunction]
    /// Functions seen in the phase's samples, kept or not.
    public var functionCount: Int

    public init(phase: String, samples: Int, functions: [SampledFunction], functionCount: Int) {
        self.phase = phase
        self.samples = samples
        self.functions = functions
        self.functionCount = functionCount
    }
}

/// One run's samples in time, for the Chrome trace (``SampleProfiles/timeline``): a table of stack
/// nodes (each a name and its caller's node) and each sample's time and leaf node.
public struct SampleTimeline: Codable, Equatable, Sendable {
    /// The run (1-based ``RunRecord/index``) the samples are from.
    public var run: Int
    /// Every frame name, once.
    public var names: [String]
    /// Stack nodes: `[name index, caller node index or -1]`; a caller always comes before its callees.
    public var nodes: [[Int]]
    /// Samples in time order: `[seconds from the spawn, protocol thread (-1: another thread or process), leaf node]`.
    public var samples: [[Double]]

    public init(run: Int, names: [String], nodes: [[Int]], samples: [[Double]]) {
        self.run = run
        self.names = names
        self.nodes = nodes
        self.samples = samples
    }

    /// The frames of `node`, root first; empty for a node index out of range (or a cycle).
    public func frames(of node: Int) -> [String] {
        var frames: [String] = []
        var current = node
        while current >= 0, current < nodes.count, nodes[current].count == 2, frames.count <= nodes.count {
            let name = nodes[current][0]
            frames.append(name >= 0 && name < names.count ? names[name] : "?")
            let parent = nodes[current][1]
            current = parent < current ? parent : -1
        }
        return frames.reversed()
    }
}

/// A result's wall-clock samples (`--sample`): per phase path, the functions perf's `cpu-clock`
/// samples found running, over every measured run; one run's samples in time for the Chrome trace.
public struct SampleProfiles: Codable, Equatable, Sendable {
    /// The most functions a result keeps per phase.
    public static let maximumFunctionsPerPhase = 100
    /// The most samples a result's ``timeline`` keeps (the first ones of the run).
    public static let maximumTimelineSamples = 20_000
    /// Samples per second of CPU time each thread was sampled at (`--sample-rate`).
    public var rate: Int
    /// The perf event (`cpu-clock`, or `cpu-clock:u` where the kernel may not be sampled).
    public var event: String
    /// Runs whose samples were read.
    public var runs: Int
    /// Samples of the runs' processes, in a phase or not.
    public var samples: Int
    /// Samples of the launched process in no phase of its thread (between phases, after the last).
    public var outsidePhases: Int
    public var phases: [PhaseSamples]
    /// The median run's samples in time (the Chrome trace's); `nil` when none was kept.
    public var timeline: SampleTimeline?

    public init(
        rate: Int, event: String, runs: Int, samples: Int, outsidePhases: Int, phases: [PhaseSamples], timeline: SampleTimeline?
    ) {
        self.rate = rate
        self.event = event
        self.runs = runs
        self.samples = samples
        self.outsidePhases = outsidePhases
        self.phases = phases
        self.timeline = timeline
    }

    /// The samples of the phase at `path`, if any fell into it.
    public func phase(_ path: String) -> PhaseSamples? {
        phases.first { $0.phase == path }
    }
}

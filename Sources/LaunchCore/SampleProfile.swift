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

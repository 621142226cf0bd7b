import LaunchCore

/// What keeps one series apart from another: results from different environments, tiers, metrics or
/// targets never share one, and each phase (or launch total, mark, peak memory) has its own. The
/// results history (LaunchHistory) groups its runs by it; the detector and the reports carry it.
public struct SeriesKey: Hashable, Comparable, Sendable {
    /// The environment fingerprint (host, toolchain) the runs were made in.
    public var environment: String
    /// The device tier (`host` for none).
    public var tier: String
    public var metric: Metric
    /// The manifest or program measured.
    public var target: SeriesTarget
    /// A phase's path as the results' tables name it, or a launch-level quantity: ``totalPhase``,
    /// a mark's `Time to <mark>`, ``peakMemoryPhase``.
    public var phase: String

    /// The series of launch totals (each run's total, or its instruction count).
    public static let totalPhase = "launch total"
    /// The series of each run's peak resident memory, in bytes, where it was measured.
    public static let peakMemoryPhase = "peak memory"

    public init(environment: String, tier: String, metric: Metric, target: SeriesTarget, phase: String) {
        self.environment = environment
        self.tier = tier
        self.metric = metric
        self.target = target
        self.phase = phase
    }

    /// By environment, tier, metric, the target's name (then its kind), phase.
    public static func < (a: SeriesKey, b: SeriesKey) -> Bool {
        (a.environment, a.tier, a.metric.rawValue, a.target.name, a.target.kind.rawValue, a.phase)
            < (b.environment, b.tier, b.metric.rawValue, b.target.name, b.target.kind.rawValue, b.phase)
    }
}

/// What a series measured: the built-in app with a manifest, or a program (`exec`), by name.
public struct SeriesTarget: Hashable, Comparable, Sendable {
    public enum Kind: String, Sendable, Comparable {
        case manifest
        case command

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    /// The manifest's name, or the program's (`exec --name`, else its command line).
    public var name: String

    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    public static func < (a: SeriesTarget, b: SeriesTarget) -> Bool { (a.kind, a.name) < (b.kind, b.name) }
}

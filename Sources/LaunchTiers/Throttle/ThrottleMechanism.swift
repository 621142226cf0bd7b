/// How a run's CPU is throttled; the raw value is what a report says ran.
public enum ThrottleMechanism: String, CaseIterable, Sendable {
    /// The run's own cgroup in the v1 cpu hierarchy: `cpu.cfs_quota_us` per `cpu.cfs_period_us`.
    case cgroupV1 = "cgroup v1 cpu.cfs_quota_us"
    /// The run's own cgroup in the unified (v2) hierarchy: `cpu.max`.
    case cgroupV2 = "cgroup v2 cpu.max"
    /// No cgroup: the launcher stops and continues the run's process group (``DutyCycle``).
    case signals = "SIGSTOP/SIGCONT duty cycling"

    /// The name a `--throttle` option would take: `cgroup-v1`, `cgroup-v2` or `signals`.
    public var optionName: String {
        switch self {
        case .cgroupV1: return "cgroup-v1"
        case .cgroupV2: return "cgroup-v2"
        case .signals: return "signals"
        }
    }

    /// The mechanism an option names (``optionName``), or `nil`.
    public init?(optionName: String) {
        guard let match = Self.allCases.first(where: { $0.optionName == optionName }) else { return nil }
        self = match
    }

    /// The shortest program, in CPU seconds, this mechanism stretches within 15% of the factor at
    /// the median, runs within 1.3× of each other (measured by `make bench`'s short-program cells,
    /// docs/tiers.md "Short programs"). A cgroup's grain is its period and the kernel's tick (a
    /// program is charged at the tick, 4 ms here, and pays for a burst in the periods after it, but
    /// not when it ends first); the duty cycle's, half a 1 ms quantum.
    public var shortestStretchedCPUSeconds: Double {
        switch self {
        case .cgroupV1, .cgroupV2: return 0.010
        case .signals: return 0.005
        }
    }

    /// Whether this mechanism uses a cgroup (and can therefore limit memory).
    public var usesCgroup: Bool { self != .signals }
}

/// The shortest program a throttle applied from outside (`exec --tier`) stretches honestly: below
/// this much CPU time, a run's stretch depends on where it fell in the throttle's grain (a cgroup's
/// period and the kernel's tick, a duty cycle's quantum) more than on the factor (docs/tiers.md,
/// "Short programs").
public struct StretchLimit: Equatable, Sendable {
    /// CPU seconds (user + system, the program's `exec` included).
    public var cpuSeconds: Double
    /// How the runs were throttled: `cgroup v1 cpu.cfs_quota_us`, …
    public var mechanism: String

    public init(cpuSeconds: Double, mechanism: String) {
        self.cpuSeconds = cpuSeconds
        self.mechanism = mechanism
    }
}

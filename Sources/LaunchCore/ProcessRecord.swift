/// What the operating system says about one run's process (`launchprof exec`): its CPU time and how
/// it ended, from `wait4`. The run's wall time is its ``RunRecord/total``.
public struct ProcessRecord: Codable, Equatable, Sendable {
    /// Seconds of CPU time in user mode, the process and its waited-for descendants.
    public var user: Double
    /// Seconds of CPU time in the kernel on its behalf.
    public var system: Double
    /// The exit status, when the process exited by itself; `nil` when a signal ended it (or
    /// launchprof did, at ready).
    public var exitStatus: Int?
    /// The signal that ended it, when one did; `nil` otherwise.
    public var signal: Int?
    /// `true` when the tier's memory limit (`--enforce-memory`) killed it; `nil` otherwise.
    public var killedOverMemoryLimit: Bool?
    /// The whole process's system counters (docs/counters.md): every thread and waited-for child, from
    /// `wait4` and `/proc/<pid>/io`; `nil` in results made before them.
    public var counters: PhaseCounters?

    public init(user: Double, system: Double, exitStatus: Int?, signal: Int? = nil) {
        self.user = user
        self.system = system
        self.exitStatus = exitStatus
        self.signal = signal
    }
}

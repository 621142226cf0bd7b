/// What became of one throttled run, known once ``RunThrottle/finish()`` has cleaned it up.
public struct ThrottleOutcome: Equatable, Sendable {
    /// Whether the kernel killed a process of the run for going over the memory limit (its OOM
    /// killer, in the run's memory cgroup): the run failed as it would on the device, and the
    /// report should say `killed: over the <tier> memory budget of <limit>` rather than "crashed".
    public var killedOverMemoryLimit: Bool
    /// What could not be cleaned up, or `nil`: a cgroup left behind and why (it is removed at the
    /// next start of launchprof once empty). Worth a warning, not a failed run.
    public var cleanupProblem: String?

    public init(killedOverMemoryLimit: Bool = false, cleanupProblem: String? = nil) {
        self.killedOverMemoryLimit = killedOverMemoryLimit
        self.cleanupProblem = cleanupProblem
    }
}

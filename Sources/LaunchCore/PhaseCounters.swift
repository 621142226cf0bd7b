/// What the system did for one phase on its thread (`--counters`, docs/counters.md): the thread's
/// CPU time, its wait for a CPU (runnable, another task running), page faults, context switches and
/// bytes read and written. Blocked time is the rest of the phase's wall time (``blocked(duration:)``).
///
/// For a phase the counters are its thread's during the phase, children included; for a run of
/// `launchprof exec` whose program reported no counters (``ProcessRecord/counters``) they are the
/// whole process's, every thread and waited-for child added up. A counter that could not be read is
/// `nil`, never 0.
public struct PhaseCounters: Codable, Equatable, Sendable {
    /// Seconds the thread ran on a CPU (`CLOCK_THREAD_CPUTIME_ID`; user and system time for a process).
    public var cpuTime: Double
    /// Seconds the thread was runnable but waited for a CPU (`/proc/thread-self/schedstat`'s
    /// `run_delay`); `nil` when the kernel does not keep it (no `CONFIG_SCHED_INFO`) or for a process.
    public var runnableTime: Double?
    /// Page faults served without I/O, and those that read from storage (`getrusage(RUSAGE_THREAD)`).
    public var minorFaults: Int
    public var majorFaults: Int
    /// Context switches: the thread gave up the CPU (it blocked), or was preempted.
    public var voluntarySwitches: Int
    public var involuntarySwitches: Int
    /// Bytes the thread read and wrote through system calls (`/proc/thread-self/io`'s `rchar` and
    /// `wchar`: from the page cache or the device alike); `nil` when the file cannot be read.
    public var bytesRead: Int?
    public var bytesWritten: Int?

    public init(
        cpuTime: Double, runnableTime: Double? = nil, minorFaults: Int = 0, majorFaults: Int = 0,
        voluntarySwitches: Int = 0, involuntarySwitches: Int = 0, bytesRead: Int? = nil, bytesWritten: Int? = nil
    ) {
        self.cpuTime = cpuTime
        self.runnableTime = runnableTime
        self.minorFaults = minorFaults
        self.majorFaults = majorFaults
        self.voluntarySwitches = voluntarySwitches
        self.involuntarySwitches = involuntarySwitches
        self.bytesRead = bytesRead
        self.bytesWritten = bytesWritten
    }

    /// Seconds of `duration` (the phase's wall time) the thread neither ran nor waited for a CPU:
    /// it slept, waited for I/O, a lock or another thread. Never negative.
    public func blocked(duration: Double) -> Double {
        max(0, duration - cpuTime - (runnableTime ?? 0))
    }

    /// The share of `duration` the thread waited for a CPU (0…1), `nil` without a run delay or a duration.
    public func runnableShare(duration: Double) -> Double? {
        guard let runnableTime, duration > 0 else { return nil }
        return min(1, runnableTime / duration)
    }

    /// What is wrong with these counters as read from a file (a negative or non-finite value), or `nil`.
    public var problem: String? {
        guard cpuTime.isFinite, cpuTime >= 0 else { return "cpuTime must be a finite, non-negative number" }
        if let runnableTime, !(runnableTime.isFinite && runnableTime >= 0) { return "runnableTime must be a finite, non-negative number" }
        for (name, value) in [
            ("minorFaults", minorFaults), ("majorFaults", majorFaults), ("voluntarySwitches", voluntarySwitches),
            ("involuntarySwitches", involuntarySwitches), ("bytesRead", bytesRead ?? 0), ("bytesWritten", bytesWritten ?? 0)
        ] where value < 0 {
            return "\(name) must not be negative, found \(value)"
        }
        return nil
    }
}

extension PhaseCounters {
    /// The counters of two stretches added up (two threads, or consecutive phases); a counter one
    /// side could not read is `nil` in the sum.
    public static func + (a: PhaseCounters, b: PhaseCounters) -> PhaseCounters {
        func sum(_ x: Int?, _ y: Int?) -> Int? { x.flatMap { x in y.map { x &+ $0 } } }
        return PhaseCounters(
            cpuTime: a.cpuTime + b.cpuTime,
            runnableTime: a.runnableTime.flatMap { x in b.runnableTime.map { x + $0 } },
            minorFaults: a.minorFaults &+ b.minorFaults, majorFaults: a.majorFaults &+ b.majorFaults,
            voluntarySwitches: a.voluntarySwitches &+ b.voluntarySwitches,
            involuntarySwitches: a.involuntarySwitches &+ b.involuntarySwitches,
            bytesRead: sum(a.bytesRead, b.bytesRead), bytesWritten: sum(a.bytesWritten, b.bytesWritten))
    }
}

extension RunRecord {
    /// The run's system counters for the whole launch: the process's (``ProcessRecord/counters``,
    /// `exec` of a program that reported none), else the sum of its top-level launch phases' on every
    /// thread; `nil` when no phase recorded counters.
    public var launchCounters: PhaseCounters? {
        if let whole = process?.counters { return whole }
        let top = phases.filter { $0.depth == 0 && !$0.afterLaunch }.compactMap(\.counters)
        guard let first = top.first else { return nil }
        return top.dropFirst().reduce(first, +)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The fallback where no cgroup can be made (no permission, a read-only or missing hierarchy): a
/// thread of the launcher lets the run's process group run for a quantum (``quantumNanoseconds``,
/// 2 ms), then stops it (SIGSTOP to the whole group) for (F − 1) quanta, and so on, so each of its
/// threads gets 1/F of the wall time.
///
/// A stop lasts (F − 1) × the time the group was actually let run (from the SIGCONT to the
/// SIGSTOP, however late the thread woke up), less what the previous stop overran, so the ratio holds
/// whatever the wake-up latency; it still counts wall time, not the CPU time the program got. The group is always left continued: by the
/// thread as it ends (``stop()`` waits for that), and by ``ExitCleanup`` if launchprof is
/// interrupted; a stopped group would hold SIGTERM pending and could not end
/// cleanly. The thread ends when stopped, when the group is gone (`kill` fails with ESRCH), or once
/// the leader has been reaped: from then on its pid, the group's id, may be given to another process
/// (`pid_max` is 32,768 here), which must never be signalled.
final class DutyCycle: @unchecked Sendable {
    /// The running quantum (2 ms): measured within about 10% of F for single-threaded programs.
    static let quantumNanoseconds: UInt64 = 2_000_000

    let group: pid_t
    /// Whether the group's leader (a spawner, waiting for the program) is continued right after
    /// each stop of the group, so that it never sits stopped when the program ends.
    let sparingLeader: Bool
    let runNanoseconds: UInt64
    /// The stop for a full running quantum: (F − 1) × the quantum.
    let stopNanoseconds: UInt64
    /// F − 1.
    private let stopPerRun: Double
    private let lock = ConditionLock()
    // Under `lock`:
    private var stopping = false
    private var cycleCount = 0
    private var ended = false
    // The launching thread's own:
    private var thread: pthread_t?
    private var registration: ExitCleanup.Registration?

    /// A duty cycle for the process group `group` (its leader's pid, > 1, a child of this process)
    /// and cpu factor `factor` (≥ 1).
    init(group: pid_t, factor: Double, sparingLeader: Bool = false, quantumNanoseconds: UInt64 = DutyCycle.quantumNanoseconds) {
        self.group = group
        self.sparingLeader = sparingLeader
        runNanoseconds = quantumNanoseconds
        let clamped = factor.isFinite ? min(max(factor, 1), ThrottleSpec.factorRange.upperBound) : 1
        stopPerRun = clamped - 1
        stopNanoseconds = UInt64(stopPerRun * Double(quantumNanoseconds))
    }

    /// Starts the thread (nothing to do for a factor of 1).
    func start() throws(RunnerError) {
        guard group > 1, stopNanoseconds > 0, thread == nil else { return }
        let group = self.group
        registration = ExitCleanup.register { kill(-group, SIGCONT) }
        var created = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &created, nil,
            { raw in
                Unmanaged<DutyCycle>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<DutyCycle>.fromOpaque(context).release()
            if let registration { ExitCleanup.unregister(registration) }
            registration = nil
            throw .throttleThreadNotStarted(reason: String(cString: strerror(status)))
        }
        thread = created
    }

    /// Ends the thread, waits for it, and leaves the group continued. Repeatable.
    func stop() {
        lock.withLock { stopping = true }
        lock.broadcast()
        if let thread { pthread_join(thread, nil) }
        thread = nil
        if let registration { ExitCleanup.unregister(registration) }
        registration = nil
    }

    /// How many times the group was stopped.
    var cycles: Int { lock.withLock { cycleCount } }

    /// Whether the thread has ended (stopped, or the group is gone).
    var hasEnded: Bool { lock.withLock { ended } }

    private func run() {
        // How much longer than asked the previous stop lasted, taken off the next one.
        var overrun: UInt64 = 0
        while true {
            guard leaderIsUnreaped(), kill(-group, SIGCONT) == 0 else { break }
            let continued = MonotonicClock.nanoseconds()
            if lock.wait(until: continued &+ runNanoseconds, for: { stopping }) { break }
            guard leaderIsUnreaped(), kill(-group, SIGSTOP) == 0 else { break }
            if sparingLeader { kill(group, SIGCONT) }
            let stopped = MonotonicClock.nanoseconds()
            lock.withLock { cycleCount += 1 }
            // Ran for up to a few seconds: no overflow; at most 1,000 × that.
            let due = UInt64(stopPerRun * Double(stopped - continued))
            let wanted = due > overrun ? due - overrun : 0
            if lock.wait(until: stopped &+ wanted, for: { stopping }) { break }
            let lasted = MonotonicClock.nanoseconds() - stopped
            overrun = lasted > wanted ? min(lasted - wanted, stopNanoseconds) : 0
        }
        kill(-group, SIGCONT)
        lock.withLock { ended = true }
    }

    /// Whether the leader is still this process's child, running or a zombie not yet reaped
    /// (`waitid` with `WNOWAIT` leaves it to the launcher to reap): while it is, no other process
    /// can have its pid as a group id.
    private func leaderIsUnreaped() -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(group), &info, WEXITED | WNOHANG | WNOWAIT) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }
}

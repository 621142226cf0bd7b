#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The fallback where no cgroup can be made (no permission, a read-only or missing hierarchy): a
/// thread of the launcher stops the run's process group (SIGSTOP to the whole group) as soon as it
/// starts, then lets it run for a quantum (``quantumNanoseconds``, 0.5 ms), stops it for (F − 1)
/// quanta, and so on, so each of its threads gets 1/F of the wall time. The first stop also pays
/// for the time since the spawn and half a quantum more (``centringNanoseconds``), so that a short
/// program, which ends inside a quantum, is stretched by F give or take half a quantum's stop. The
/// thread runs at real-time priority where it may (root, `CAP_SYS_NICE`), so that its stops and
/// continues are on time on a busy machine.
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
    /// The running quantum (0.5 ms). A program that ends during a quantum skips the stop it would
    /// owe for it, so the quantum is the grain of a short program's stretch (``centringNanoseconds``):
    /// ± (F − 1) × 0.25 ms, ±11% of a 2 ms program's stretched time. With 1 ms, a 2 ms program at
    /// F = 16 stretched 0.85 F at the median (a fixed length ends at a fixed point of its last quantum).
    static let quantumNanoseconds: UInt64 = 500_000

    let group: pid_t
    /// Whether the group's leader (a spawner, waiting for the program) is continued right after
    /// each stop of the group, so that it never sits stopped when the program ends.
    let sparingLeader: Bool
    /// The device's cores: how many of the program's threads compute at once unslowed by each other.
    let cores: Int
    let runNanoseconds: UInt64
    /// The stop for a full running quantum: (F − 1) × the quantum.
    let stopNanoseconds: UInt64
    /// Added to the first stop: (F − 1) × half a quantum. A program ends during its last quantum,
    /// anywhere in it, and skips the stop it would owe for it: without this, a run is short by
    /// 0 to (F − 1) quanta (a 2 ms program at F = 16 by up to 21%); with it, by −½ to +½ of that,
    /// centred on the true stretch.
    let centringNanoseconds: UInt64
    /// When the group started running (its spawn): it is stopped at once, owing for the time since.
    let runningSince: UInt64
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
    /// `runningSince`: when the group was spawned (by default, now).
    init(
        group: pid_t, factor: Double, cores: Int = 1, sparingLeader: Bool = false,
        quantumNanoseconds: UInt64 = DutyCycle.quantumNanoseconds, runningSince: UInt64 = MonotonicClock.nanoseconds()
    ) {
        self.group = group
        self.cores = max(1, cores)
        self.sparingLeader = sparingLeader
        self.runningSince = runningSince
        runNanoseconds = quantumNanoseconds
        let clamped = factor.isFinite ? min(max(factor, 1), ThrottleSpec.factorRange.upperBound) : 1
        stopPerRun = clamped - 1
        stopNanoseconds = UInt64(stopPerRun * Double(quantumNanoseconds))
        centringNanoseconds = stopNanoseconds / 2
    }

    /// Starts the thread (nothing to do for a factor of 1).
    func start() throws(TierError) {
        guard group > 1, stopNanoseconds > 0, thread == nil else { return }
        let group = self.group
        registration = ExitCleanup.register { kill(-group, SIGCONT) }
        var created = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
            Unmanaged<DutyCycle>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }
        // Real-time from its birth where allowed, so that its first stop is not late on a busy machine.
        var status = LinuxThreadCalls.withRealTimeAttributes { attributes in pthread_create(&created, attributes, body, context) }
        if status != 0 { status = pthread_create(&created, nil, body, context) }
        guard status == 0 else {
            Unmanaged<DutyCycle>.fromOpaque(context).release()
            if let registration { ExitCleanup.unregister(registration) }
            registration = nil
            throw .throttle(.threadNotStarted(reason: String(cString: strerror(status))))
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

    /// What the cycle carries from one stop to the next (the thread's own).
    private struct Progress {
        /// When the group was last continued; at first its spawn (it has run since, and is stopped at once).
        var continued: UInt64
        /// Added to the next stop: at first (F − 1) × half a quantum (``centringNanoseconds``), then 0.
        var extra: UInt64
        /// How much longer than asked the previous stop lasted, taken off the next one.
        var overrun: UInt64 = 0
        /// Before the first stop.
        var first = true
        /// The program's CPU clock, and its reading at the last stop (it counts from the program's birth).
        var clock: ProgramCPUClock?
        var counted: UInt64 = 0
        /// Whether the clock tells what the program computed (not once it has children).
        var clockCounts = true
    }

    /// The thread's body: stop the group at once, then let it run a quantum and stop it for what it
    /// owes, until stopped or the group is gone; the group is left continued.
    private func run() {
        LinuxThreadCalls.raiseToRealTimeIfAllowed()
        var progress = Progress(continued: runningSince, extra: centringNanoseconds, clock: sparingLeader ? nil : ProgramCPUClock(process: group))
        if !sparingLeader || waitForSpawnersProgram(&progress) {
            while cycleOnce(&progress) {}
        }
        kill(-group, SIGCONT)
        lock.withLock { ended = true }
    }

    /// The spawner starts the program after its own exec: the first stop waits for it, or the
    /// program would run unstopped until the second. `false`: the cycle is over before it began.
    private func waitForSpawnersProgram(_ progress: inout Progress) -> Bool {
        switch awaitProgram() {
        case .started(let found):
            progress.clock = found
            progress.continued = MonotonicClock.nanoseconds()
            return true
        case .unknown:
            return true
        case .over:
            return false
        }
    }

    /// One cycle: the group let run for a quantum (not before the first stop), stopped, and held
    /// stopped for what it owes. `false` once the cycle is over (stopped, or the group gone).
    private func cycleOnce(_ progress: inout Progress) -> Bool {
        if !progress.first {
            guard letRun(&progress) else { return false }
        }
        guard let stopped = stopGroup() else { return false }
        let used = cpuUsedSinceLastStop(&progress)
        progress.first = false
        return holdStopped(since: stopped, cpu: used, &progress)
    }

    /// Continues the group and lets it run for a quantum; `false` when the group is gone or the cycle stopped.
    private func letRun(_ progress: inout Progress) -> Bool {
        guard leaderIsUnreaped(), kill(-group, SIGCONT) == 0 else { return false }
        progress.continued = MonotonicClock.nanoseconds()
        return !lock.wait(until: progress.continued &+ runNanoseconds, for: { stopping })
    }

    /// Stops the group (a sparing leader is continued at once) and counts the cycle; when, or `nil`
    /// when the group is gone.
    private func stopGroup() -> UInt64? {
        guard leaderIsUnreaped(), kill(-group, SIGSTOP) == 0 else { return nil }
        if sparingLeader { kill(group, SIGCONT) }
        let stopped = MonotonicClock.nanoseconds()
        lock.withLock { cycleCount += 1 }
        return stopped
    }

    /// The CPU time the program used since the last stop, or `nil` when its clock does not tell.
    private func cpuUsedSinceLastStop(_ progress: inout Progress) -> UInt64? {
        if progress.clock == nil, progress.clockCounts, sparingLeader, let found = ProgramCPUClock(childOf: group) {
            // Found after the first stop, its count covers quanta already paid for: from the next one.
            progress.clock = found
            if !progress.first { progress.counted = found.nanoseconds() ?? 0 }
        }
        // A program with children computes off its clock: from then on each thread is F times slower.
        if let clock = progress.clock, clock.hasChildren() { progress.clockCounts = false }
        guard progress.clockCounts, let now = progress.clock?.nanoseconds() else { return nil }
        defer { progress.counted = now }
        return now >= progress.counted ? now - progress.counted : 0
    }

    /// Holds the group stopped for the stop it owes (``owedStop(factor:cores:wall:cpu:)``, less the
    /// previous stop's overrun); `false` when the cycle was stopped meanwhile.
    private func holdStopped(since stopped: UInt64, cpu used: UInt64?, _ progress: inout Progress) -> Bool {
        let due = Self.owedStop(factor: stopPerRun + 1, cores: cores, wall: stopped - progress.continued, cpu: used) &+ progress.extra
        progress.extra = 0
        let wanted = due > progress.overrun ? due - progress.overrun : 0
        if lock.wait(until: stopped &+ wanted, for: { stopping }) { return false }
        let lasted = MonotonicClock.nanoseconds() - stopped
        progress.overrun = lasted > wanted ? min(lasted - wanted, stopNanoseconds) : 0
        return true
    }

    /// What became of the program a spawner leading the group starts.
    private enum AwaitedProgram {
        /// It has started (the spawner's first child): its clock.
        case started(ProgramCPUClock)
        /// Cannot be told (no `/proc/PID/task/PID/children`, or not within ``programWaitNanoseconds``):
        /// the cycle goes on without waiting, as for a group of its own.
        case unknown
        /// The cycle was stopped, or the spawner is gone.
        case over
    }

    /// Polls every 50 µs for the program a spawner leading the group starts.
    private func awaitProgram() -> AwaitedProgram {
        guard access("/proc/\(group)/task/\(group)/children", R_OK) == 0 else { return .unknown }
        let deadline = MonotonicClock.nanoseconds() &+ Self.programWaitNanoseconds
        while MonotonicClock.nanoseconds() < deadline {
            if let found = ProgramCPUClock(childOf: group) { return .started(found) }
            guard leaderIsUnreaped() else { return .over }
            if lock.wait(until: MonotonicClock.nanoseconds() &+ 50_000, for: { stopping }) { return .over }
        }
        return .unknown
    }

    /// How long a spawner may take to start the program (its own exec and the program's spawn: about
    /// 1 ms here) before the cycle goes on without it.
    static let programWaitNanoseconds: UInt64 = 1_000_000_000

    /// The stop owed after the group ran for `wall` nanoseconds in which the program used `cpu`
    /// nanoseconds of CPU (all its threads; `nil`: unknown), for cpu factor `factor` on a device of
    /// `cores` cores. That work takes the device F × max(cpu ÷ cores, min(cpu, wall)): one thread
    /// computing is F times slower; k threads computing at once share min(k, cores) cores. The
    /// quantum already took `wall`, so time the program waited for a CPU here (a busy machine) is
    /// not owed again. Unknown CPU time: (F − 1) × `wall`, each thread F times slower.
    static func owedStop(factor: Double, cores: Int, wall: UInt64, cpu: UInt64?) -> UInt64 {
        guard let cpu else { return UInt64(max(0, factor - 1) * Double(wall)) }
        let work = max(Double(cpu) / Double(max(cores, 1)), min(Double(cpu), Double(wall)))
        let device = factor * work
        // At most 1,000 × a few seconds: no overflow.
        return device > Double(wall) ? UInt64(device - Double(wall)) : 0
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

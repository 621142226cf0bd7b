#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// One run's throttle (`--tier` for a foreign program, issue 15 part 6): made before the spawn,
/// finished after the reap, also when the run fails.
///
/// The launcher calls, in this order:
///
/// ```swift
/// let throttle = try RunThrottle.make(spec)                 // before the spawn
/// let status = try throttle.spawning {                      // around posix_spawn only
///     posix_spawn(&pid, path, &actions, &attributes, argv, envp)
/// }
/// if status == 0 { try throttle.started(pid: pid) }         // pid: the group leader (POSIX_SPAWN_SETPGROUP, 0)
/// … collect, reap the program, kill and reap its group …
/// let outcome = throttle.finish()                           // after the reap; always (defer)
/// ```
///
/// Through a spawner process that starts the program itself (`launchprof-spawn`): no `spawning`;
/// the spawner applies ``spawnerMoves`` around its own `posix_spawn`, and the launcher calls
/// `started(pid: spawnerPid, throughSpawner: true)` — the spawner stays unthrottled.
///
/// - ``ThrottleMechanism/cgroupV1``: the run gets a cgroup of its own (``RunCgroup``) with the
///   quota of ``CPUBandwidth``; ``spawning(_:)`` moves the calling thread into it for the spawn and
///   back, so the child starts there from its first instruction (and its memory, after `exec`, is
///   charged to the run's memory cgroup).
/// - ``ThrottleMechanism/cgroupV2``: the same, but ``started(pid:)`` moves the child in (a v2 thread
///   cannot move alone): the child runs its first microseconds, between the spawn's return and that
///   write, unthrottled.
/// - ``ThrottleMechanism/signals``: ``started(pid:)`` starts a ``DutyCycle`` on the child's group.
///
/// ``finish()`` stops the duty cycle (leaving the group continued), tells whether the memory limit
/// killed the program, and removes the cgroup (killing anything left in it first). If launchprof
/// is interrupted, ``ExitCleanup`` does the same (each cgroup and duty cycle registers); if it is
/// killed outright, the next launchprof to throttle removes the empty cgroups it left (``StaleCgroups``).
/// A throttle that is never finished is finished when it is released.
public final class RunThrottle: Sendable {
    /// What was asked for.
    public let spec: ThrottleSpec
    /// What throttles the run.
    public let mechanism: ThrottleMechanism
    /// The CPU bandwidth of the run's cgroup (for ``ThrottleMechanism/signals``, the same ratio as a duty cycle).
    public let bandwidth: CPUBandwidth
    /// Why no cgroup is used, when ``mechanism`` is ``ThrottleMechanism/signals`` without being
    /// forced: each cgroup mechanism tried and the reason it failed.
    public let fallbackReason: String?

    /// What a spawner process writes its pid to around its own spawn, so that the program it
    /// starts is in the run's cgroups from its first instruction and the spawner is not (empty
    /// with signals). See ``SpawnerMoves``.
    public var spawnerMoves: SpawnerMoves { cgroup?.spawnerMoves ?? SpawnerMoves() }

    /// The run's cgroup directories (one per v1 hierarchy, or one v2 directory); empty with signals.
    public var cgroupDirectories: [String] { cgroup?.directories.map(\.path) ?? [] }

    private let cgroup: RunCgroup?

    /// What ``ExitCleanup`` runs for this throttle's cgroups if launchprof ends first.
    var cleanupRegistrations: [ExitCleanup.Registration] { cgroup?.directories.compactMap(\.registration) ?? [] }
    private let state = State()

    /// What changes during the run, under a lock.
    private final class State: @unchecked Sendable {
        let lock = ConditionLock()
        var dutyCycle: DutyCycle?
        /// The launching thread while it is raised for a spawn under signals (``spawning(_:)``).
        var raisedThread: pthread_t?
        var problems: [String] = []
        /// Set by the one ``finish()`` that cleans up; others wait for its ``outcome``.
        var finishing = false
        var outcome: ThrottleOutcome?
    }

    private init(spec: ThrottleSpec, mechanism: ThrottleMechanism, cgroup: RunCgroup?, fallbackReason: String?) {
        self.spec = spec
        self.mechanism = mechanism
        self.bandwidth = CPUBandwidth(factor: spec.cpuFactor, cores: spec.cores)
        self.cgroup = cgroup
        self.fallbackReason = fallbackReason
    }

    deinit { _ = finish() }

    /// Makes the throttle for one run: a cgroup v1 if the cpu controller is mounted there, else a
    /// cgroup v2, else the signal fallback (``fallbackReason`` says why). `forcing` asks for one
    /// mechanism and fails if it cannot be had. A memory limit needs a cgroup.
    ///
    /// - Throws: ``TierError/throttle(_:)``: ``ThrottleProblem/factorOutOfRange(_:)`` or
    ///   ``ThrottleProblem/memoryLimitOutOfRange(_:)`` for a bad spec; ``ThrottleProblem/unavailable(_:reason:)``
    ///   when the forced mechanism cannot be used; ``ThrottleProblem/memoryLimitNeedsCgroup(reason:)``.
    public static func make(_ spec: ThrottleSpec, forcing: ThrottleMechanism? = nil) throws(TierError) -> RunThrottle {
        try spec.validate()
        let bandwidth = CPUBandwidth(factor: spec.cpuFactor, cores: spec.cores)
        if let forcing {
            if forcing == .signals {
                if spec.memoryLimit != nil { throw .throttle(.memoryLimitNeedsCgroup(reason: "the signals mechanism was asked for")) }
                return RunThrottle(spec: spec, mechanism: .signals, cgroup: nil, fallbackReason: nil)
            }
            do {
                let cgroup = try RunCgroup.make(forcing, bandwidth: bandwidth, memoryLimit: spec.memoryLimit)
                return RunThrottle(spec: spec, mechanism: forcing, cgroup: cgroup, fallbackReason: nil)
            } catch {
                if case .throttle(.unavailable) = error { throw error }
                throw .throttle(.unavailable(forcing, reason: error.description))
            }
        }
        let mounts = CgroupMounts.current()
        var candidates: [ThrottleMechanism] = []
        if mounts.v1Mount(for: "cpu") != nil { candidates.append(.cgroupV1) }
        if mounts.unified != nil { candidates.append(.cgroupV2) }
        var reasons: [String] = []
        for candidate in candidates {
            do {
                let cgroup = try RunCgroup.make(candidate, bandwidth: bandwidth, memoryLimit: spec.memoryLimit, mounts: mounts)
                return RunThrottle(spec: spec, mechanism: candidate, cgroup: cgroup, fallbackReason: nil)
            } catch {
                reasons.append(error.description)
            }
        }
        if reasons.isEmpty { reasons.append("no cgroup hierarchy is mounted") }
        let reason = reasons.joined(separator: "; ")
        if spec.memoryLimit != nil { throw .throttle(.memoryLimitNeedsCgroup(reason: reason)) }
        return RunThrottle(spec: spec, mechanism: .signals, cgroup: nil, fallbackReason: reason)
    }

    /// Calls `spawn` (which must create the run's process on the calling thread, as `posix_spawn`
    /// does) so that the process starts inside the run's cgroup from its first instruction (v1);
    /// in v2 and with signals it just calls `spawn`. Take the run's start time inside `spawn`.
    ///
    /// In v1 the calling thread is in the run's cgroup while `spawn` runs, so what it does there is
    /// throttled and charged to the run: call nothing else inside.
    ///
    /// With signals the calling thread runs at real-time priority from the spawn to ``started(pid:throughSpawner:)``
    /// (or ``finish()``), where allowed, so that it stops the program within microseconds of its start
    /// however busy the machine is: a program of 2 ms could otherwise run to its end first.
    public func spawning<R>(_ spawn: () -> R) throws(TierError) -> R {
        if mechanism == .signals, spec.cpuFactor > 1, LinuxThreadCalls.raiseForSpawn() {
            let thread = pthread_self()
            state.lock.withLock { state.raisedThread = thread }
        }
        guard mechanism == .cgroupV1, let cgroup else { return spawn() }
        let tid = LinuxThreadCalls.currentThread()
        guard tid > 0 else {
            throw .throttle(.unavailable(.cgroupV1, reason: "the launching thread's id is unknown (gettid)"))
        }
        let origins = try cgroup.enter(thread: tid)
        let result = spawn()
        if let problem = cgroup.leave(thread: tid, to: origins) {
            state.lock.withLock { state.problems.append(problem) }
        }
        return result
    }

    /// After a successful spawn, with the pid of the process spawned (a child of this process, the
    /// leader of its own process group): v2 moves the program into the run's cgroup; signals starts
    /// the duty cycle on the group. `throughSpawner`: that process is a spawner that applied
    /// ``spawnerMoves`` itself and starts the program in its group; it is then neither moved nor
    /// stopped (the duty cycle continues it at once after each group stop), so its timing of the
    /// program is never held back. If this throws, the program is not throttled: kill it and fail
    /// the run.
    public func started(pid: pid_t, throughSpawner: Bool = false) throws(TierError) {
        guard pid > 1 else { return }
        switch mechanism {
        case .cgroupV1:
            return
        case .cgroupV2:
            if !throughSpawner { try cgroup?.attach(pid) }
        case .signals:
            // Stopped at once, from the launching thread (still raised, if ``spawning(_:)`` was used).
            if !throughSpawner, spec.cpuFactor > 1 { kill(-pid, SIGSTOP) }
            lowerLaunchingThread()
            let cycle = DutyCycle(group: pid, factor: spec.cpuFactor, cores: spec.cores, sparingLeader: throughSpawner)
            let previous = state.lock.withLock { () -> DutyCycle? in
                defer { state.dutyCycle = cycle }
                return state.dutyCycle
            }
            previous?.stop()
            try cycle.start()
        }
    }

    /// Puts the launching thread back to ordinary priority, if ``spawning(_:)`` raised it.
    private func lowerLaunchingThread() {
        let raised = state.lock.withLock { () -> pthread_t? in
            defer { state.raisedThread = nil }
            return state.raisedThread
        }
        if let raised { LinuxThreadCalls.lowerToOrdinary(raised) }
    }

    /// Ends the throttle after the run (call it after reaping the program, also when the run or
    /// the spawn failed): stops the duty cycle and leaves the group continued, reads whether the
    /// memory limit killed the program, and removes the cgroup, killing what is left in it first.
    /// Repeatable, from any thread: one call cleans up, the others wait for it and return its outcome.
    @discardableResult
    public func finish() -> ThrottleOutcome {
        let (claimed, cycle) = state.lock.withLock { () -> (Bool, DutyCycle?) in
            if state.finishing { return (false, nil) }
            state.finishing = true
            defer { state.dutyCycle = nil }
            return (true, state.dutyCycle)
        }
        guard claimed else {
            var outcome: ThrottleOutcome?
            _ = state.lock.wait(until: .max) {
                outcome = state.outcome; return outcome != nil
            }
            return outcome ?? ThrottleOutcome()
        }
        cycle?.stop()
        lowerLaunchingThread()
        var outcome = ThrottleOutcome()
        if let cgroup {
            outcome.killedOverMemoryLimit = cgroup.memoryLimitKills() > 0
            if let problem = cgroup.remove() { state.lock.withLock { state.problems.append(problem) } }
        }
        state.lock.withLock {
            outcome.cleanupProblem = state.problems.isEmpty ? nil : state.problems.joined(separator: "; ")
            state.outcome = outcome
        }
        state.lock.broadcast()
        return outcome
    }

}

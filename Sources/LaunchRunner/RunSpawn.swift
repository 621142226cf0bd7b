#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchTiers
import LaunchTraces

/// How a run's process is started: by the session's spawner directly, through a spawner it forks,
/// through a spawned `launchprof-spawn`, or by `posix_spawn` here (docs/exec.md).
extension ProcessLauncher {
    /// A run's process, as started.
    struct SpawnedRun {
        /// The process launchprof waits for: the program, or the spawner leading its group.
        var pid: pid_t = 0
        /// 0, or the errno of a failed spawn.
        var status: Int32 = 0
        /// The clocks just before the spawn: the run's origin (the server's own, for a direct start).
        var clock: SpawnClock
        var registration: ExitCleanup.Registration?
        /// Started by the session's spawner itself: the program is this process's child.
        var direct = false
        /// Through a spawner that applies the throttle's moves itself and leads the group.
        var throughSpawner = false
    }

    /// Starts the run's process with `descriptors`' child ends (the caller closes them after).
    func spawnRun(
        _ command: RunCommand, _ descriptors: inout RunDescriptors, throttle: RunThrottle?, containment: RunContainment?
    ) throws(RunnerError) -> SpawnedRun {
        let spawner = program?.spawner
        // One spawner for the whole session (``SessionSpawner``): for runs in a cgroup of their own,
        // whose end needs no sweep for escaped processes. Without a device tier it starts the program itself.
        let session = containment != nil && program?.spawnerSession == true ? spawner.flatMap(SessionSpawner.shared) : nil
        if let session, throttle == nil, let run = startDirect(session, command, descriptors, containment: containment) { return run }
        guard let spawner else {
            let d = descriptors
            let spawn = { posixSpawn(executable, command.command, command, d, containment: containment, throughSpawner: false) }
            guard let throttle else { return spawn() }
            do { return try throttle.spawning(spawn) } catch { throw .throttleFailed(error) }
        }
        do { try descriptors.addReportPipe() } catch { throw .spawnFailed(executable: executable, reason: error.reason) }
        // The spawner moves itself into the run's cgroups around its own spawn (exact, and its timing
        // is never throttled).
        let moves = throttle?.spawnerMoves ?? SpawnerMoves()
        let options =
            (containment.map { ["--join", $0.directory] } ?? []) + moves.enter.flatMap { ["--enter", $0] } + moves.leave.flatMap { ["--leave", $0] }
            + ["--", executable] + command.command
        if let session, let run = startForked(session, options, command, descriptors, containment: containment) { return run }
        let argv = [spawner, String(descriptors.reportPipe[1])] + options
        return posixSpawn(spawner, argv, command, descriptors, containment: containment, throughSpawner: true)
    }

    /// The session's spawner starts the program itself; `nil` when it has gone or cannot here.
    private func startDirect(
        _ session: SessionSpawner, _ command: RunCommand, _ d: RunDescriptors, containment: RunContainment?
    ) -> SpawnedRun? {
        ExitCleanup.guarded { register in
            let options = (containment.map { ["--join", $0.directory] } ?? []) + ["--", executable] + command.command
            switch session.startDirect(Self.sessionRequest(d, options, command)) {
            case .program(let pid, let clock)?:
                var run = SpawnedRun(pid: pid, clock: clock, direct: true)
                run.registration = register(ChildProcessGuard.ending(group: pid, token: command.runToken, containment: containment))
                return run
            case .failed(let pid, let error)?:
                if let pid { _ = reap(pid, deadline: nil) }
                return SpawnedRun(status: error, clock: .now(), direct: true)
            case .unsupported?, nil:
                return nil
            }
        }
    }

    /// The session's spawner forks the run's spawner; `nil` when it has gone.
    private func startForked(
        _ session: SessionSpawner, _ options: [String], _ command: RunCommand, _ d: RunDescriptors, containment: RunContainment?
    ) -> SpawnedRun? {
        ExitCleanup.guarded { register in
            var run = SpawnedRun(clock: .now(), throughSpawner: true)
            switch session.start(Self.sessionRequest(d, options, command), report: d.reportPipe[1]) {
            case .spawner(let pid)?:
                run.pid = pid
                run.registration = register(ChildProcessGuard.ending(group: pid, token: command.runToken, containment: containment))
                return run
            case .failed(let error)?:
                run.status = error
                return run
            case nil:
                return nil
            }
        }
    }

    /// What the session's spawner is given for a run: its descriptors, `options` and environment.
    private static func sessionRequest(_ d: RunDescriptors, _ options: [String], _ command: RunCommand) -> SessionSpawner.Request {
        SessionSpawner.Request(
            input: d.control[0] >= 0 ? d.control[0] : nil, output: d.outputPipe[1] >= 0 ? d.outputPipe[1] : nil,
            error: d.errorPipe[1], protocolDescriptor: d.protocolPipe[1], options: options, environment: command.environment)
    }

    /// `posix_spawn` of `path` with the run's descriptors, in a process group of its own, registered
    /// at once (if launchprof is ending, the launch is ended with it). The actions are built only
    /// here: glibc checks each against the descriptor limit, a system call each.
    private func posixSpawn(
        _ path: String, _ argv: [String], _ command: RunCommand, _ d: RunDescriptors, containment: RunContainment?, throughSpawner: Bool
    ) -> SpawnedRun {
        withCStrings(argv) { cArgv in
            withCStrings(command.environment) { cEnvp in
                ExitCleanup.guarded { register in
                    var actions = posix_spawn_file_actions_t()
                    Self.prepareActions(&actions, d)
                    defer { posix_spawn_file_actions_destroy(&actions) }
                    // Its own process group, so a timeout can kill everything it started.
                    var attributes = posix_spawnattr_t()
                    SpawnAttributes.prepare(&attributes, newGroup: true)
                    defer { posix_spawnattr_destroy(&attributes) }
                    // The reading just before the spawn is the run's origin.
                    var run = SpawnedRun(clock: .now(), throughSpawner: throughSpawner)
                    run.status = posix_spawn(&run.pid, path, &actions, &attributes, cArgv, cEnvp)
                    if run.status == 0 {
                        run.registration = register(ChildProcessGuard.ending(group: run.pid, token: command.runToken, containment: containment))
                    }
                    return run
                }
            }
        }
    }

    /// The child's descriptors: standard input (the control socket or `/dev/null`), output (its
    /// pipe or `/dev/null`), error, the protocol descriptor, and the spawner's report descriptor.
    private static func prepareActions(_ actions: inout posix_spawn_file_actions_t, _ d: RunDescriptors) {
        posix_spawn_file_actions_init(&actions)
        // Standard input first: the control socket may itself be descriptor 3, which the protocol
        // pipe takes next.
        if d.control[0] >= 0 {
            posix_spawn_file_actions_adddup2(&actions, d.control[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, d.protocolPipe[1], protocolDescriptor)
        posix_spawn_file_actions_adddup2(&actions, d.errorPipe[1], 2)
        if d.outputPipe[1] >= 0 {
            posix_spawn_file_actions_adddup2(&actions, d.outputPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        // Dup'd onto itself: the spawner inherits it (close-on-exec is cleared), the program does not.
        if d.reportPipe[1] >= 0 { posix_spawn_file_actions_adddup2(&actions, d.reportPipe[1], d.reportPipe[1]) }
    }
}

/// How a spawner process puts the program it starts into the run's cgroups itself, exactly, for a
/// launch that goes through one (`launchprof exec` starts each run through `launchprof-spawn`,
/// which times the program and spawns it).
///
/// The spawner writes `0` (itself) to each ``enter`` file just before its `posix_spawn`, and to each
/// ``leave`` file right after: the program starts inside the run's cgroups from its first
/// instruction (it inherits them from the spawner, which is one single-threaded process, so moving
/// it by its one thread, v1 `tasks`, or by `cgroup.procs` in v2 is exact), while the spawner itself is throttled only
/// for its spawn — its timing of the program's exit is not held back by the program's quota, and
/// its memory is not charged to the program's limit. In C:
///
/// ```c
/// for (i = 0; i < enter_count; i++) write_text(enter[i], "0\n");   // fail the run on error
/// status = posix_spawn(&pid, path, NULL, &attributes, argv, environ);
/// for (i = 0; i < leave_count; i++) write_text(leave[i], "0\n");
/// ```
///
/// The launcher starts the spawner without ``RunThrottle/spawning(_:)`` and calls
/// ``RunThrottle/started(pid:throughSpawner:)`` with `throughSpawner: true`.
public struct SpawnerMoves: Equatable, Sendable {
    /// The run's cgroups' v1 `tasks` files (one per hierarchy) or its v2 `cgroup.procs`. Empty with signals.
    public var enter: [String]
    /// The same files of the cgroups the spawner came from (launchprof's own).
    public var leave: [String]

    public init(enter: [String] = [], leave: [String] = []) {
        self.enter = enter
        self.leave = leave
    }

    /// Whether there is nothing to move (the signal mechanism).
    public var isEmpty: Bool { enter.isEmpty }
}

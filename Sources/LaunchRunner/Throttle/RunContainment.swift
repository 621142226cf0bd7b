#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// A cgroup v2 that holds one launch's processes, so that everything the launch started can be
/// found and ended — also a daemon that left the program's process group (`setsid()`) and cleared
/// its environment, which neither the group kill nor ``EscapedProcessReaper`` can find.
///
/// The program enters it before its first instruction when it is started through the spawner
/// (`launchprof-spawn --join`, before the spawner's reading of the run's start, so the move is not
/// timed), else right after its spawn (``attach(_:)``). At the end of the launch, ``end()`` reads
/// `cgroup.events` (one read: the usual answer is "not populated") and, if anything is left, kills
/// it all at once with `cgroup.kill` (Linux 5.14) and waits, at most ``budgetNanoseconds``, until
/// it has exited.
///
/// The directories come from a ``Pool`` (made once, `launchprof-<pid>-<n>` inside launchprof's own
/// v2 cgroup, which as a cgroup holding processes has no controllers for its children: no limit
/// applies) and go back to it after the launch, so a launch costs no `mkdir` or `rmdir`; they are
/// removed when launchprof ends (``ExitCleanup``). Without a v2 hierarchy where launchprof may
/// make a cgroup (not root and no delegation, or a kernel before 5.14), there is no pool and the
/// launch relies on its process group and its token.
struct RunContainment: Sendable {
    /// The longest ``end()`` waits for what it killed to exit (1 s).
    static let budgetNanoseconds: UInt64 = 1_000_000_000

    let directory: String
    var procsFile: String { directory + "/cgroup.procs" }

    /// Moves the process `pid` (the launch's first process) in; `false` if that failed (the launch
    /// then runs uncontained).
    @discardableResult
    func attach(_ pid: pid_t) -> Bool {
        CgroupFile.writeReturningError(String(pid), to: procsFile) == nil
    }

    /// Whether a process is still inside (`cgroup.events`: `populated 1`).
    var isPopulated: Bool {
        guard let events = CgroupFile.read(directory + "/cgroup.events") else { return false }
        return events.split(separator: "\n").contains("populated 1")
    }

    /// Kills whatever is still inside and waits until it has exited (at most ``budgetNanoseconds``);
    /// returns whether anything was there. Those of them that become this process's children are
    /// reaped by the next ``EscapedProcessReaper/sweep(token:)``.
    @discardableResult
    func end() -> Bool {
        guard isPopulated else { return false }
        _ = CgroupFile.writeReturningError("1", to: directory + "/cgroup.kill")
        let giveUp = MonotonicClock.nanoseconds() &+ Self.budgetNanoseconds
        while isPopulated, MonotonicClock.nanoseconds() < giveUp { usleep(500) }
        return true
    }

    /// The directories of this process's launches.
    final class Pool: @unchecked Sendable {
        /// The pool, or `nil` where no cgroup can hold a launch (made at the first launch).
        static let shared: Pool? = make()

        private let parent: String
        private let lock = ConditionLock()
        private var free: [RunContainment] = []
        private var made: [RunContainment] = []

        private init(parent: String) { self.parent = parent }

        /// A pool inside launchprof's own v2 cgroup, if a first directory can be made there and has
        /// `cgroup.kill`; it is removed when launchprof ends.
        private static func make() -> Pool? {
            guard let mount = CgroupMounts.current().unified,
                let own = CgroupMembership.callingThread()?.unifiedPath.flatMap({ mount.directory(of: $0) })
            else { return nil }
            StaleCgroups.sweepOnce(own)
            let pool = Pool(parent: own)
            guard let first = pool.makeDirectory(registeringRemoval: true) else { return nil }
            guard access(first.directory + "/cgroup.kill", W_OK) == 0 else {
                pool.removeAll()
                return nil
            }
            pool.lock.withLock { pool.free = [first] }
            return pool
        }

        /// Makes a directory and records it (with, for the first, the pool's removal at the end),
        /// inside ``ExitCleanup/guarded(_:)``: none is made once launchprof is ending, and none made
        /// before is missed.
        private func makeDirectory(registeringRemoval: Bool = false) -> RunContainment? {
            ExitCleanup.guarded { register in
                let path = parent + "/" + ThrottleRegistry.newCgroupName()
                guard mkdir(path, 0o755) == 0 else { return nil }
                let made = RunContainment(directory: path)
                lock.withLock { self.made.append(made) }
                if registeringRemoval { _ = register { [self] in removeAll() } }
                return made
            }
        }

        /// A directory for one launch (a new one while others are in use).
        func acquire() -> RunContainment? {
            if let reused = lock.withLock({ free.popLast() }) { return reused }
            return makeDirectory()
        }

        /// Gives a directory back after its launch (``end()`` called).
        func release(_ containment: RunContainment) {
            lock.withLock { free.append(containment) }
        }

        /// Kills what is inside every directory and removes them.
        func removeAll() {
            let all = lock.withLock { () -> [RunContainment] in
                defer { made = []; free = [] }
                return made
            }
            for containment in all {
                _ = CgroupRemoval(directory: containment.directory, threadsFile: "cgroup.threads", parentThreads: nil, lift: nil)
                    .remove(budgetNanoseconds: Self.removalBudget)
            }
        }

        /// The longest each directory's removal waits for what it killed (500 ms).
        static let removalBudget: UInt64 = 500_000_000
    }
}

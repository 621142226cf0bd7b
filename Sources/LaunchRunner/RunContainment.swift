#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchTiers

/// A cgroup v2 that holds one launch's processes, so that everything the launch started can be
/// found and ended — also a daemon that left the program's process group (`setsid()`) and cleared
/// its environment, which neither the group kill nor ``EscapedProcessReaper`` can find.
///
/// Started through the spawner (`launchprof exec`'s runs), the program is born inside it:
/// `launchprof-spawn --join DIRECTORY` starts it with `clone3(CLONE_INTO_CGROUP)`, which costs
/// nothing more than its `posix_spawn` (`--prepare` and `--cleanup` go through it too). A program
/// launched without the spawner is moved in after its spawn (``attach(_:)``): that move waits for an
/// RCU grace period (about 12 ms here) while the program runs, and a process it forks before the
/// move lands stays outside. The built-in app's launches have none (they start no daemon: the
/// process group holds them). At the end of the launch, ``end()`` reads
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

    /// Whether a process is still inside (`cgroup.events` begins `populated 1`): one `read` of 64
    /// bytes, at the end of every launch.
    var isPopulated: Bool {
        let fd = open(directory + "/cgroup.events", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &bytes) { buffer in
            var n = 0
            repeat { n = read(fd, buffer.baseAddress, buffer.count) } while n < 0 && errno == EINTR
            return n > 0 && buffer.prefix(n).starts(with: "populated 1".utf8)
        }
    }

    /// Kills whatever is still inside and waits until it has exited (at most ``budgetNanoseconds``);
    /// returns whether anything was there. Those of them that became this process's children are
    /// reaped. A directory `cgroup.kill` was
    /// written to is not used again: this kernel (6.18) kills a process later born into it with
    /// `CLONE_INTO_CGROUP` (its kill count is compared with the parent's cgroup's).
    @discardableResult
    func end() -> Bool {
        guard isPopulated else { return false }
        Pool.shared?.retire(self)
        let inside = (CgroupFile.read(procsFile) ?? "").split(separator: "\n").compactMap { pid_t($0) }
        _ = CgroupFile.writeReturningError("1", to: directory + "/cgroup.kill")
        let giveUp = MonotonicClock.nanoseconds() &+ Self.budgetNanoseconds
        while isPopulated, MonotonicClock.nanoseconds() < giveUp { usleep(500) }
        // Those re-parented here (launchprof is the subreaper of what it launches) are reaped.
        var status: Int32 = 0
        for pid in inside { while waitpid(pid, &status, WNOHANG) < 0 && errno == EINTR {} }
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
        /// Directories not to use again (``RunContainment/end()`` killed what was inside).
        private var retired: Set<String> = []

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
                let path = parent + "/" + StaleCgroups.newName()
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

        /// Gives a directory back after its launch (``end()`` called); a retired one is removed. It
        /// stays recorded until it is gone, so that launchprof ending meanwhile (the removal may wait
        /// for what it killed) removes it too.
        func release(_ containment: RunContainment) {
            let reusable = lock.withLock { () -> Bool in
                guard retired.contains(containment.directory) else {
                    free.append(containment)
                    return true
                }
                return false
            }
            guard !reusable else { return }
            Self.remove(containment)
            lock.withLock { made.removeAll { $0.directory == containment.directory } }
        }

        /// Marks a directory as not to be used again.
        func retire(_ containment: RunContainment) {
            lock.withLock { _ = retired.insert(containment.directory) }
        }

        /// Kills what is inside a directory and removes it.
        private static func remove(_ containment: RunContainment) {
            _ = CgroupRemoval(directory: containment.directory, threadsFile: "cgroup.threads", parentThreads: nil, lift: nil)
                .remove(budgetNanoseconds: removalBudget)
        }

        /// Kills what is inside every directory and removes them.
        func removeAll() {
            let all = lock.withLock { () -> [RunContainment] in
                defer { made = []; free = [] }
                return made
            }
            for containment in all { Self.remove(containment) }
        }

        /// The longest each directory's removal waits for what it killed (500 ms).
        static let removalBudget: UInt64 = 500_000_000
    }
}

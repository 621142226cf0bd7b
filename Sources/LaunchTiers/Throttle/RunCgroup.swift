#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// One run's cgroup: a new directory, `launchprof-<pid>-<n>`, configured with the CPU bandwidth and
/// the memory limit, placed so that every limit above launchprof still applies to the run.
///
/// - cgroup v1: one directory in the cpu hierarchy and, for a memory limit, one in the memory
///   hierarchy, each inside the launching thread's own cgroup there. The launching thread enters
///   them for the spawn (``enter(thread:)``), so the child starts inside from its first instruction,
///   and leaves right after (``leave(thread:to:)``).
/// - cgroup v2: one directory beside launchprof's own cgroup (in its parent; in the root when
///   launchprof is there), whose `cgroup.subtree_control` must offer the controllers or accept
///   them; the child is moved in right after the spawn (``attach(_:)``).
struct RunCgroup: Sendable {
    struct Directory: Sendable {
        var path: String
        var parent: String
        /// Launchprof's own cgroup in this hierarchy, where a spawner comes from (v1: ``parent``).
        var origin: String
        var mount: CgroupMount
        /// The v1 controller (`cpu`, `memory`); `nil` in v2.
        var controller: String?
        var removal: CgroupRemoval
        /// Its removal if launchprof ends first (``ExitCleanup``).
        var registration: ExitCleanup.Registration?
    }

    let mechanism: ThrottleMechanism
    let directories: [Directory]
    let hasMemoryLimit: Bool

    /// Creates and configures the run's cgroup for `mechanism` (``ThrottleMechanism/cgroupV1`` or
    /// ``ThrottleMechanism/cgroupV2``); on any failure, removes what it made and throws.
    static func make(
        _ mechanism: ThrottleMechanism, bandwidth: CPUBandwidth, memoryLimit: Int?,
        mounts: CgroupMounts = .current(), membership: CgroupMembership? = .callingThread(),
        name: String = StaleCgroups.newName()
    ) throws(TierError) -> RunCgroup {
        guard let membership else { throw .throttle(.unavailable(mechanism, reason: "/proc/thread-self/cgroup cannot be read")) }
        var made: [Directory] = []
        do throws(TierError) {
            switch mechanism {
            case .cgroupV1:
                for controller in ["cpu"] + (memoryLimit == nil ? [] : ["memory"]) {
                    guard let mount = mounts.v1Mount(for: controller) else {
                        throw .throttle(.unavailable(mechanism, reason: "no cgroup v1 hierarchy with the \(controller) controller is mounted"))
                    }
                    let parent = try ownCgroupDirectory(mechanism, mount: mount, cgroup: membership.path(ofController: controller), controller)
                    let lift = controller == "cpu" ? (file: "cpu.cfs_quota_us", value: "-1") : nil
                    let directory = try makeDirectory(
                        parent: parent, origin: parent, name: name, mount: mount, controller: controller,
                        threadsFile: "tasks", parentThreads: parent + "/tasks", lift: lift)
                    made.append(directory)
                    if controller == "cpu" {
                        try CgroupFile.write(bandwidth.v1Period, to: directory.path + "/cpu.cfs_period_us")
                        try CgroupFile.write(bandwidth.v1Quota, to: directory.path + "/cpu.cfs_quota_us")
                    } else if let memoryLimit {
                        try CgroupFile.write(String(memoryLimit), to: directory.path + "/memory.limit_in_bytes")
                        // Memory plus swap, where swap is accounted: the limit cannot be escaped by swapping.
                        try CgroupFile.writeIfPresent(String(memoryLimit), to: directory.path + "/memory.memsw.limit_in_bytes")
                    }
                }
            case .cgroupV2:
                guard let mount = mounts.unified else { throw .throttle(.unavailable(mechanism, reason: "no cgroup2 hierarchy is mounted")) }
                // A v2 cgroup holding processes cannot give controllers to children ("no internal
                // processes"), and launchprof's own cgroup holds launchprof: unless it is the root,
                // the run's cgroup goes beside it, in its parent.
                let own = try ownCgroupDirectory(mechanism, mount: mount, cgroup: membership.unifiedPath, "unified")
                let parent = membership.unifiedPath == "/" || own == mount.mountPoint ? own : FileIO.parentDirectory(of: own)
                let needed = (bandwidth.quotaMicroseconds == nil ? [] : ["cpu"]) + (memoryLimit == nil ? [] : ["memory"])
                try enable(needed, in: parent)
                let directory = try makeDirectory(
                    parent: parent, origin: own, name: name, mount: mount, controller: nil, threadsFile: "cgroup.threads",
                    parentThreads: nil, lift: needed.contains("cpu") ? (file: "cpu.max", value: "max") : nil)
                made.append(directory)
                if needed.contains("cpu") { try CgroupFile.write(bandwidth.v2Max, to: directory.path + "/cpu.max") }
                if let memoryLimit {
                    try CgroupFile.write(String(memoryLimit), to: directory.path + "/memory.max")
                    try CgroupFile.writeIfPresent("0", to: directory.path + "/memory.swap.max")
                }
            case .signals:
                throw .throttle(.unavailable(mechanism, reason: "not a cgroup mechanism"))
            }
        } catch {
            _ = RunCgroup(mechanism: mechanism, directories: made, hasMemoryLimit: false).remove()
            throw error
        }
        return RunCgroup(mechanism: mechanism, directories: made, hasMemoryLimit: memoryLimit != nil)
    }

    /// The directory of the launching thread's `cgroup` under `mount`.
    private static func ownCgroupDirectory(
        _ mechanism: ThrottleMechanism, mount: CgroupMount, cgroup: String?,
        _ hierarchy: String
    ) throws(TierError) -> String {
        guard let cgroup else {
            throw .throttle(.unavailable(mechanism, reason: "this thread is in no cgroup of the \(hierarchy) hierarchy (/proc/thread-self/cgroup)"))
        }
        guard let directory = mount.directory(of: cgroup) else {
            throw .throttle(.unavailable(mechanism, reason: "this thread's \(hierarchy) cgroup \(cgroup) is not visible under \(mount.mountPoint)"))
        }
        return directory
    }

    /// Makes `controllers` available to the children of the v2 cgroup `parent` (its `cgroup.subtree_control`).
    private static func enable(_ controllers: [String], in parent: String) throws(TierError) {
        guard !controllers.isEmpty else { return }
        let available = (CgroupFile.read(parent + "/cgroup.controllers") ?? "").split(whereSeparator: \.isWhitespace)
        for controller in controllers where !available.contains(Substring(controller)) {
            throw .throttle(
                .unavailable(
                    .cgroupV2, reason: "the \(controller) controller is not available in \(parent) (cgroup.controllers: \(available.joined(separator: " ")))"))
        }
        let enabled = (CgroupFile.read(parent + "/cgroup.subtree_control") ?? "").split(whereSeparator: \.isWhitespace)
        let missing = controllers.filter { !enabled.contains(Substring($0)) }
        guard !missing.isEmpty else { return }
        let path = parent + "/cgroup.subtree_control"
        if let error = CgroupFile.writeReturningError(missing.map { "+" + $0 }.joined(separator: " "), to: path) {
            throw .throttle(
                .unavailable(
                    .cgroupV2, reason: "\(path): cannot enable \(missing.joined(separator: ", ")) for child cgroups: \(CgroupFile.describe(error))"))
        }
    }

    private static func makeDirectory(
        parent: String, origin: String, name: String, mount: CgroupMount, controller: String?,
        threadsFile: String, parentThreads: String?,
        lift: (file: String, value: String)?
    ) throws(TierError) -> Directory {
        StaleCgroups.sweepOnce(parent)
        let path = parent + "/" + name
        let removal = CgroupRemoval(directory: path, threadsFile: threadsFile, parentThreads: parentThreads, lift: lift)
        // Made and registered together: if launchprof is ending, neither happens.
        let made = ExitCleanup.guarded { register -> Result<ExitCleanup.Registration, CgroupError> in
            guard mkdir(path, 0o755) == 0 else { return .failure(CgroupError(errno: errno)) }
            return .success(register { _ = removal.removeWithoutReaping(budgetNanoseconds: CgroupRemoval.interruptedBudgetNanoseconds) })
        }
        switch made {
        case .success(let registration):
            return Directory(
                path: path, parent: parent, origin: origin, mount: mount, controller: controller, removal: removal,
                registration: registration)
        case .failure(let error):
            throw .throttle(.cgroup(path: path, action: "create the cgroup", reason: CgroupFile.describe(error.errno)))
        }
    }

    /// v1: moves the thread `tid` into the run's cgroups, so that a process it creates starts there.
    /// Returns the cgroup directories it came from, for ``leave(thread:to:)``. On failure it is back
    /// where it was.
    func enter(thread tid: pid_t) throws(TierError) -> [String] {
        let before = CgroupMembership.callingThread()
        let origins = directories.map { directory in
            directory.controller.flatMap { before?.path(ofController: $0) }.flatMap { directory.mount.directory(of: $0) } ?? directory.parent
        }
        for (index, directory) in directories.enumerated() {
            let path = directory.path + "/tasks"
            if let error = CgroupFile.writeReturningError(Self.movingThread(tid), to: path) {
                _ = leave(thread: tid, to: Array(origins.prefix(index)))
                throw .throttle(.cgroup(path: path, action: "move the launching thread in", reason: CgroupFile.describe(error)))
            }
        }
        return origins
    }

    /// v1: moves the thread back to `origins` (or, failing that, to the parent of the run's cgroup);
    /// returns what could not be done, or `nil`.
    func leave(thread tid: pid_t, to origins: [String]) -> String? {
        var problems: [String] = []
        for (directory, origin) in zip(directories, origins) {
            guard CgroupFile.writeReturningError(Self.movingThread(tid), to: origin + "/tasks") != nil else { continue }
            if let error = CgroupFile.writeReturningError(Self.movingThread(tid), to: directory.parent + "/tasks") {
                problems.append("the launching thread could not leave \(directory.path): \(CgroupFile.describe(error))")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// What v1 `tasks` is given to move the thread `tid`: `0` (the writing thread itself) when `tid`
    /// is the calling thread. The kernel moves the writing thread without taking the global lock
    /// that a move by number takes (`cgroup_threadgroup_rwsem`, whose write side waits for an RCU
    /// grace period): measured here at load 10, 0.1 ms instead of 15–44 ms.
    static func movingThread(_ tid: pid_t) -> String {
        tid == LinuxThreadCalls.currentThread() ? "0" : String(tid)
    }

    /// What a spawner writes `0` (itself) to around its spawn (``SpawnerMoves``): v1 `tasks` (a
    /// single-threaded spawner's one thread is the whole process, and a thread moving itself takes
    /// no global lock), v2 `cgroup.procs`.
    var spawnerMoves: SpawnerMoves {
        let file = mechanism == .cgroupV1 ? "/tasks" : "/cgroup.procs"
        return SpawnerMoves(enter: directories.map { $0.path + file }, leave: directories.map { $0.origin + file })
    }

    /// v2: moves the process `pid` into the run's cgroup. A program that has already exited (ESRCH)
    /// is left alone: it ran unthrottled, and its run is over.
    func attach(_ pid: pid_t) throws(TierError) {
        for directory in directories {
            let path = directory.path + "/cgroup.procs"
            if let error = CgroupFile.writeReturningError(String(pid), to: path), error != ESRCH {
                throw .throttle(.cgroup(path: path, action: "move the program (\(pid)) in", reason: CgroupFile.describe(error)))
            }
        }
    }

    /// How many processes the kernel's OOM killer killed in the run's memory cgroup (0 without a limit).
    func memoryLimitKills() -> Int {
        guard hasMemoryLimit else { return 0 }
        switch mechanism {
        case .cgroupV1:
            guard let memory = directories.first(where: { $0.controller == "memory" }) else { return 0 }
            return CgroupFile.counter("oom_kill", in: memory.path + "/memory.oom_control") ?? 0
        case .cgroupV2:
            return directories.reduce(0) { $0 + (CgroupFile.counter("oom_kill", in: $1.path + "/memory.events") ?? 0) }
        case .signals:
            return 0
        }
    }

    /// Empties and removes every directory (``CgroupRemoval``); returns what was left behind, or `nil`.
    func remove() -> String? {
        var problems: [String] = []
        for directory in directories {
            let error = directory.removal.remove()
            if let registration = directory.registration { ExitCleanup.unregister(registration) }
            if error != 0 { problems.append("could not remove \(directory.path): \(CgroupFile.describe(error))") }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}

/// An `errno` as an error value.
struct CgroupError: Error {
    var errno: Int32
}

#if canImport(Glibc)
import Glibc
#endif

/// What a signal handler must release if launchprof is interrupted (SIGINT, SIGTERM, SIGHUP) while
/// runs are throttled: the live run cgroups, to empty and remove, and the process groups being duty
/// cycled, to leave continued. ``releaseAll()`` is async-signal-safe; ``ChildProcessGuard`` calls it.
///
/// Fixed storage allocated once, before the first registration: `capacity` slots of `slotBytes`
/// each for cgroups' ``CgroupRemoval`` layouts, and as many for process groups. The signal handler
/// reads them without a lock; a slot's content is written before it is marked live, and a plain
/// aligned word is read whole (as ``ChildProcessGuard/currentGroup`` is). A cgroup whose paths do
/// not fit a slot, or past `capacity`, is not registered: it is still removed after its run, and
/// after a kill by the next start (``StaleCgroups``).
enum ThrottleRegistry {
    static let capacity = 16
    static let slotBytes = 16384

    private struct Storage: @unchecked Sendable {
        let layouts = UnsafeMutablePointer<CChar>.allocate(capacity: ThrottleRegistry.capacity * ThrottleRegistry.slotBytes)
        let cgroupLive = UnsafeMutablePointer<Int32>.allocate(capacity: ThrottleRegistry.capacity)
        let groups = UnsafeMutablePointer<pid_t>.allocate(capacity: ThrottleRegistry.capacity)

        init() {
            cgroupLive.initialize(repeating: 0, count: ThrottleRegistry.capacity)
            groups.initialize(repeating: 0, count: ThrottleRegistry.capacity)
        }
    }

    private static let lock = ConditionLock()
    private static let storage = Storage()
    /// Set once ``storage`` exists; until then the handler has nothing to do (and touches nothing lazy).
    nonisolated(unsafe) private static var ready = false
    nonisolated(unsafe) private static var sequence = 0

    /// Allocates the storage and resolves the thread calls, from ordinary code.
    static func prepare() {
        lock.withLock {
            guard !ready else { return }
            _ = storage
            LinuxThreadCalls.prepare()
            ready = true
        }
    }

    /// A name for a new run cgroup, unique on this machine while this process lives:
    /// `launchprof-<pid>-<sequence>` (``StaleCgroups`` reads the pid back).
    static func newCgroupName() -> String {
        let number = lock.withLock {
            sequence += 1; return sequence
        }
        return "\(StaleCgroups.prefix)\(getpid())-\(number)"
    }

    /// Records a live cgroup; returns its slot, or `nil` when none is free or the paths do not fit.
    static func register(_ removal: CgroupRemoval) -> Int? {
        prepare()
        guard removal.layout.count <= slotBytes else { return nil }
        return lock.withLock {
            guard let slot = (0..<capacity).first(where: { storage.cgroupLive[$0] == 0 }) else { return nil }
            let destination = storage.layouts + slot * slotBytes
            removal.layout.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: $0.count) }
            storage.cgroupLive[slot] = 1
            return slot
        }
    }

    /// Forgets a cgroup (removed by its run).
    static func unregister(cgroupSlot slot: Int) {
        lock.withLock { storage.cgroupLive[slot] = 0 }
    }

    /// Records a process group being duty cycled; returns its slot, or `nil` when none is free.
    static func register(group: pid_t) -> Int? {
        prepare()
        return lock.withLock {
            guard let slot = (0..<capacity).first(where: { storage.groups[$0] == 0 }) else { return nil }
            storage.groups[slot] = group
            return slot
        }
    }

    static func unregister(groupSlot slot: Int) {
        lock.withLock { storage.groups[slot] = 0 }
    }

    /// Async-signal-safe: continues every duty-cycled group (SIGCONT: a stopped group cannot act on
    /// SIGTERM, and a killed launchprof must not leave it stopped), then empties and removes every
    /// live cgroup, each within 500 ms. For a signal handler; ordinary code removes its own.
    static func releaseAll() {
        guard ready else { return }
        for slot in 0..<capacity {
            let group = storage.groups[slot]
            if group > 1 { kill(-group, SIGCONT) }
        }
        for slot in 0..<capacity where storage.cgroupLive[slot] != 0 {
            _ = CgroupRemoval.remove(layout: storage.layouts + slot * slotBytes, budgetNanoseconds: 500_000_000, killed: nil)
            storage.cgroupLive[slot] = 0
        }
    }
}

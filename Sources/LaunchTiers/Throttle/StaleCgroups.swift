#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Run cgroups left behind by a launchprof that was killed (SIGKILL leaves no chance to clean up):
/// `launchprof-<pid>-<n>` directories whose launchprof is gone. Each is removed if it is empty (a
/// non-empty one still holds what that run started, and is left alone). The first throttle made
/// in a process sweeps each parent cgroup it uses, once.
package enum StaleCgroups {
    static let prefix = "launchprof-"

    private static let lock = ConditionLock()
    nonisolated(unsafe) private static var swept: Set<String> = []
    nonisolated(unsafe) private static var sequence = 0

    /// A name for a new run cgroup, unique on this machine while this process lives:
    /// `launchprof-<pid>-<sequence>` (``owner(of:)`` reads the pid back).
    package static func newName() -> String {
        let number = lock.withLock {
            sequence += 1
            return sequence
        }
        return "\(prefix)\(getpid())-\(number)"
    }

    /// Sweeps `parent` unless this process already has; returns how many were removed.
    @discardableResult
    package static func sweepOnce(_ parent: String) -> Int {
        let first = lock.withLock { swept.insert(parent).inserted }
        return first ? sweep(parent) : 0
    }

    /// Removes the empty run cgroups in `parent` whose launchprof process no longer exists.
    @discardableResult
    static func sweep(_ parent: String) -> Int {
        var removed = 0
        for name in FileIO.entries(of: parent) where name.hasPrefix(prefix) {
            guard let owner = owner(of: name), owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            if rmdir(parent + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// The pid in `launchprof-<pid>-<n>`, or `nil` for any other name.
    static func owner(of name: String) -> pid_t? {
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard name.hasPrefix(prefix), parts.count == 2, let pid = pid_t(parts[0]), pid > 0, Int(parts[1]) != nil else { return nil }
        return pid
    }
}

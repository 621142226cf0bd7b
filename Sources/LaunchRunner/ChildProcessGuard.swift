#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import Synchronization

/// Ends every launch in flight when launchprof itself ends first (Ctrl-C, `kill`, SIGHUP, or an
/// `exit()`), so that an interrupted run never leaves a process running.
///
/// A launch runs in its own process group (so a timeout can kill all it started), which also means
/// the terminal's Ctrl-C does not reach it. Each launch registers, at its spawn, an action with
/// ``ExitCleanup`` that does what the end of a run does (``ProcessLauncher/killAndReapGroup(_:token:containment:)``):
/// everything left in its cgroup killed, its group killed and reaped, and what escaped the group
/// with its token. Every launch in flight has one, so overlapping launches (`--relaunch-after`) are
/// all ended. Throttled runs' cgroups and duty cycles register their own release.
public enum ChildProcessGuard {
    /// The leaders (first processes) of the launches in flight: children of launchprof that the
    /// launch itself reaps, which ``EscapedProcessReaper`` must leave alone.
    private static let leaders = Mutex<Set<pid_t>>([])

    /// Routes SIGINT, SIGTERM and SIGHUP to ``ExitCleanup``'s thread (which ends what is registered,
    /// then launchprof, with exit status 128 + signal). Call first thing in `main`.
    public static func install() {
        ExitCleanup.installSignalHandling()
    }

    /// The action that ends the launch whose first process is `group` (called inside
    /// ``ExitCleanup/guarded(_:)``, right after its spawn; the leader is recorded as in flight).
    static func ending(group: pid_t, token: String, containment: RunContainment?) -> @Sendable () -> Void {
        leaders.withLock { _ = $0.insert(group) }
        return {
            kill(-group, SIGKILL)
            kill(group, SIGKILL)
            ProcessLauncher.killAndReapGroup(group, token: token, containment: containment)
        }
    }

    /// The launch of `group` has ended its processes itself.
    static func ended(_ registration: ExitCleanup.Registration, group: pid_t) {
        ExitCleanup.unregister(registration)
        leaders.withLock { _ = $0.remove(group) }
    }

    /// Whether `pid` leads a launch in flight.
    static func isLeader(_ pid: pid_t) -> Bool {
        leaders.withLock { $0.contains(pid) }
    }
}

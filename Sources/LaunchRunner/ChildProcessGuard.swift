#if canImport(Glibc)
import Glibc
#endif

/// Kills the launched app when launchprof itself is interrupted (Ctrl-C, `kill`), so an interrupted
/// run never leaves an app running on in its own process group.
///
/// The app runs in its own process group (so a timeout can kill all it started), which also means
/// the terminal's Ctrl-C does not reach it; this guard forwards the end to it.
public enum ChildProcessGuard {
    /// The process group of the app running now, or 0. Written by the launching thread only; read by
    /// the signal handler, for which a plain aligned word is safe.
    nonisolated(unsafe) static var currentGroup: pid_t = 0

    /// Installs handlers for SIGINT, SIGTERM and SIGHUP that kill the running app and release what
    /// throttles runs (``RunThrottle/releaseAfterInterruption()``), then let the signal end launchprof
    /// as it would have (exit status 128 + signal).
    public static func install() {
        // A parent may have started launchprof with these blocked; they must reach the handler.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            Glibc.signal(signal) { received in
                let group = ChildProcessGuard.currentGroup
                if group > 0 {
                    kill(-group, SIGKILL)
                    kill(group, SIGKILL)
                }
                // Throttled runs: duty-cycled groups continued, run cgroups emptied and removed.
                ThrottleRegistry.releaseAll()
                Glibc.signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}

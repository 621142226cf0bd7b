import LaunchRunner

/// The `launchprof` executable's whole program: the CLI lives in this library, so that tests can
/// parse command lines with the real parser (LaunchprofDocsTests) without linking the executable,
/// which carries the static Swift runtime and Foundation.
public enum LaunchprofMain {
    /// Installs the exit path, parses the arguments, runs the command and exits with its documented status.
    public static func run() -> Never {
        // SIGINT, SIGTERM, SIGHUP and exit() end every launch in flight and remove launchprof's temporary files (ExitCleanup).
        ChildProcessGuard.install()
        Launchprof.runMain()
    }
}

import LaunchRunner

// SIGINT, SIGTERM, SIGHUP and exit() end every launch in flight and remove launchprof's temporary files (ExitCleanup).
ChildProcessGuard.install()
Launchprof.runMain()

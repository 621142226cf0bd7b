import LaunchRunner

// Ctrl-C ends the launched app too (it runs in its own process group).
ChildProcessGuard.install()
Launchprof.runMain()

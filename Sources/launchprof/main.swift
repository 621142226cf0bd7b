import LaunchCore
import LaunchRunner

// The launch clock starts here, as the very first statement of the process's main:
// every "Time for …" and the total are measured from this reading.
let clock = LaunchClock.startAtMain()
// Under Callgrind (`--metric instructions`), everything before this dump is `process start`.
if CallgrindBoundaries.isRunningOnValgrind { CallgrindBoundaries.main() }

// `launchprof run` re-executes this binary as the app it profiles, once per run.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == AppMode.argument {
    AppMode.main(clock: clock, arguments: Array(CommandLine.arguments.dropFirst(2)))
}

// Ctrl-C ends the launched app too (it runs in its own process group).
ChildProcessGuard.install()
Launchprof.runMain()

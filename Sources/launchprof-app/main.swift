import LaunchApp
import LaunchCore

// The built-in app that `launchprof run` launches once per run. The launch clock starts here, as
// the very first statement of the process's main: every "Time for …" and the total are measured
// from this reading.
let clock = LaunchClock.startAtMain()
// Under Callgrind (`--metric instructions`), everything before this dump is `process start`.
if CallgrindBoundaries.isRunningOnValgrind { CallgrindBoundaries.main() }
BuiltInApp.main(clock: clock, arguments: Array(CommandLine.arguments.dropFirst()))

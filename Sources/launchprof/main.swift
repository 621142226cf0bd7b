import LaunchCore

// The launch clock starts here, as the very first statement of the process's main:
// every "Time for …" and the total are measured from this reading.
LaunchClock.startAtMain()

Launchprof.runMain()

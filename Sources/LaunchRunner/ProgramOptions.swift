import LaunchCore
import LaunchTraces

/// How `launchprof exec` launches a program that is not the built-in app: it may or may not speak the
/// line protocol, its output is the user's, its exit status and CPU time are part of the result, and
/// its launch may end when it is ready rather than when it exits.
public struct ProgramOptions: Sendable {
    /// The environment variable naming the descriptor the program may write the protocol to.
    public static let descriptorVariable = "LAUNCHPROF_FD"
    /// The most bytes of the program's stderr kept for an error message or a trace reader (16 MiB).
    public static let maximumStderrBytes = 16 << 20
    /// The longest output line tested against `--ready-when-output` (longer lines are tested by their
    /// first 64 KiB).
    public static let maximumReadyLineBytes = 64 << 10

    /// `--show-output`: the program's stdout and stderr are copied to launchprof's stderr as they come.
    public var showOutput = false
    /// `--ignore-failure`: a non-zero exit (or a signal) is recorded, not a failed run.
    public var ignoreFailure = false
    /// The end of the launch, when it is not the program's exit.
    public var readiness: Readiness?
    /// Seconds between SIGTERM and SIGKILL when a ready program is stopped (`--grace`).
    public var grace: Double = 5
    /// `launchprof-spawn`, the small process the program is spawned through so that its peak memory
    /// is its own (see Sources/launchprof-spawn/spawn.c); `nil`: spawned directly, and a peak no
    /// larger than launchprof's own size at the spawn is not reported.
    public var spawner: String?
    /// Whether the runs that have a cgroup of their own go through one spawner started for the
    /// session, which forks each run's (``SessionSpawner``), rather than an exec of ``spawner`` per
    /// run. The two give the same runs; `false` is for tests that compare them.
    public var spawnerSession = true
    /// `--trace FORMAT`: the startup trace the program writes, read into the run's phases.
    public var trace: TraceCapture?
    /// Where a trace file launchprof names per run goes (git-trace2 without `--trace-file`).
    public var traceDirectory = FileIO.temporaryDirectory
    /// `--expect-phase`: phases every run must report (a missing phase is never taken as 0).
    public var expectedPhases: [String] = []

    public init() {}

    /// Whether the program's stdout must be read (rather than sent to `/dev/null`).
    var readsStandardOutput: Bool {
        if showOutput { return true }
        if case .output = readiness { return true }
        return false
    }
}

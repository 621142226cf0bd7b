#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchTraces

/// One run as the launcher reads it (``ProcessLauncher/collect(pid:pipes:spawnReading:index:runToken:containment:direct:trace:)``):
/// the pipes until they close or the deadline passes (or the program is ready), the control
/// channel's taps and lines after launch, the ready condition, then the process's end and the record.
struct RunReading {
    let launcher: ProcessLauncher
    let pid: pid_t
    let pipes: Pipes
    let spawnReading: UInt64
    let index: Int
    let runToken: String
    let containment: RunContainment?
    /// Started by the session's spawner itself: this process reads the program's counters at its exit.
    let direct: Bool
    let trace: (capture: TraceCapture, file: String?, clock: SpawnClock)?
    /// Readable when the process has exited: its exit is seen at once, even while a pipe stays open.
    let exitFD: Int32
    let deadline: UInt64
    let schedule: [ScheduledTap]
    let stderrLimit: Int
    let readiness: Readiness?
    /// The ready pattern, tested on a thread of its own: no pattern can hold the loop past the timeout.
    let matcher: ReadyMatcher?
    /// A ready condition probed from here (a port, a file), not matched in the output.
    let probes: Bool

    var spawner = SpawnerReport()
    var reportOpen: Bool
    var protocolOpen = true, errorOpen = true, outputOpen: Bool
    var controlSent: Bool
    var tapsSent: [UInt64] = []
    var parser: ProtocolParser
    var pending: [UInt8] = []
    var stderrBytes: [UInt8] = []
    var stderrTruncated = false
    var buffer = [UInt8](repeating: 0, count: 65536)
    var failure: RunnerError?
    /// Set when launchprof killed the program over a failure (garbage, a limit): the failure is the
    /// cause then, not the program's end.
    var killedOverFailure = false
    var protocolBytes = 0, records = 0
    /// How the program ended, once it has (checked while reading: its pipes may outlive it).
    var ended: ProcessLauncher.Ending?
    var exitReading: UInt64?
    var drainDeadline = UInt64.max
    /// Set when `background` is sent, with a budget.
    var backgroundDeadline = UInt64.max
    /// The last `x-progress` text: the step the program said it was in.
    var progress: String?
    /// `--ready-when-…`: the reading at which the program was seen ready, and the partial output
    /// lines a `--ready-when-output` pattern is tested against (stdout, stderr).
    var readyReading: UInt64?
    var nextProbe: UInt64 = 0
    var partialLines: [[UInt8]] = [[], []]

    init(
        launcher: ProcessLauncher, pid: pid_t, pipes: Pipes, spawnReading: UInt64, index: Int, runToken: String,
        containment: RunContainment?, direct: Bool, trace: (capture: TraceCapture, file: String?, clock: SpawnClock)?
    ) {
        self.launcher = launcher
        self.pid = pid
        self.pipes = pipes
        self.spawnReading = spawnReading
        self.index = index
        self.runToken = runToken
        self.containment = containment
        self.direct = direct
        self.trace = trace
        exitFD = ProcessLauncher.pidDescriptor(pid)
        // Checked before converting: NaN, negative or huge timeouts cannot trap (a year at most).
        let seconds = launcher.timeout.isFinite ? min(max(0, launcher.timeout), 366 * 86_400) : 60
        deadline = MonotonicClock.nanoseconds() &+ UInt64(seconds * 1e9)
        schedule = launcher.taps.sorted { $0.seconds < $1.seconds }
        stderrLimit = launcher.program == nil ? 65536 : ProgramOptions.maximumStderrBytes
        readiness = launcher.program?.readiness
        let readyRegex: ExtendedRegex? = if case .output(let regex) = readiness { regex } else { nil }
        matcher = readyRegex.flatMap { ReadyMatcher($0) }
        probes = readiness != nil && readyRegex == nil
        reportOpen = pipes.reportFD >= 0
        outputOpen = pipes.outputFD >= 0
        controlSent = pipes.controlFD < 0
        parser = ProtocolParser(spawnReading: spawnReading)
    }

    /// Whether a `--ready-when-output` pattern was asked for and its thread could not be started.
    var matcherMissing: Bool {
        if case .output = readiness { return matcher == nil }
        return false
    }

    /// The pipes, the pidfd and the matcher's thread, after the run.
    func close() {
        matcher?.stop()
        for fd in [pipes.protocolFD, pipes.errorFD, pipes.outputFD, pipes.reportFD, exitFD] where fd >= 0 { Glibc.close(fd) }
    }

    /// Kills the program and its group and reaps them, as a run that failed or timed out ends.
    func killProgram() {
        if ended == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            _ = launcher.reap(pid, deadline: nil)
        }
        ProcessLauncher.killAndReapGroup(pid, token: runToken, containment: containment)
    }

    /// The timeout's error, naming where the program was.
    var timedOut: RunnerError { .timedOut(seconds: launcher.timeout, inPhase: parser.openPhaseNames.last ?? progress) }

    func tapDue(_ i: Int) -> UInt64 { spawnReading &+ UInt64(min(max(0, schedule[i].seconds), 86_400) * 1e9) }
}

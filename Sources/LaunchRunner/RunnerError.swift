#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchTiers
import LaunchTraces

/// LaunchRunner's one error: why a launched process did not give a usable run, why a run could not
/// be throttled, why a startup trace could not be read (``TraceError``), or an option of the runner's that cannot
/// be used. Every message is rendered here, by ``message(subject:)``.
public enum RunnerError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Launches

    /// The process could not be started.
    case spawnFailed(executable: String, reason: String)
    /// The process was killed by a signal (a crash).
    case crashed(signal: Int32, inPhase: String?, stderr: String)
    /// The process ran past the timeout and was killed.
    case timedOut(seconds: Double, inPhase: String?)
    /// The process exited with a non-zero status; `stderr` holds what it said.
    case exited(status: Int32, stderr: String)
    /// The process wrote a line the protocol does not allow (``CoreError/protocolLine(line:reason:)``).
    case garbage(CoreError)
    /// The process exited without finishing its report (no `done` line).
    case incomplete(lines: Int)
    /// The program's report went over a limit (``ProcessLauncher/maxProtocolBytes``,
    /// ``ProcessLauncher/maxProtocolRecords``) and the program was killed.
    case overLimit(String)
    /// Instructions were to be counted (`--metric instructions`) and could not be.
    case instructionsNotCounted(String)
    /// The program was still in its background step when the background budget ran out and was
    /// killed with SIGKILL, as the OS kills an app that takes too long (``ProcessLauncher/backgroundBudget``).
    case killedInBackground(seconds: Double, inPhase: String?)
    /// The report was complete but a mark the launcher expects (``ProcessLauncher/expectedMarks``) never came.
    case missingMark(String)
    /// The ready condition held before the program was started (a file left by a previous run,
    /// another server on the port).
    case readyBeforeLaunch(Readiness)
    /// The run's throttle (a tier applied from outside) could not be set up (LaunchTiers' error).
    case throttleFailed(TierError)
    /// The cgroup's memory limit (`--enforce-memory`) killed the program, as the device would.
    case killedOverMemoryLimit(label: String, bytes: Int)
    /// The run's startup trace (`--trace`) could not be read (LaunchTraces' error).
    case traceUnreadable(TraceError)
    /// The run's startup trace is on its standard error, which is over the `keptBytes` launchprof keeps.
    case traceCutShort(keptBytes: Int)
    /// A `--prepare` or `--cleanup` command failed: `failure`, with `subject` naming the command.
    indirect case stepFailed(subject: String, failure: RunnerError)
    /// The run never reported a phase it must have (`--expect-phase`).
    case missingPhase(String)
    /// The program exited before it was ready (`--ready-when-…`); `status` is its exit status, or
    /// `nil` when a signal ended it (`signal`).
    case exitedBeforeReady(condition: String, status: Int32?, signal: Int32?, stderr: String)

    // MARK: Other inputs

    /// A Callgrind output file that is not what Callgrind writes: `line` is 1-based.
    case callgrindFormat(line: Int, reason: String)
    /// A pattern `regcomp` refuses (``ExtendedRegex``), with its reason (`Unmatched ( or \(`).
    case invalidPattern(pattern: String, reason: String)

    /// The message with the built-in app as the subject.
    public var description: String { message(subject: "the app") }

    /// The message, naming the launched program `subject` (`the app`, or `python3` for `launchprof exec`).
    public func message(subject: String) -> String {
        switch self {
        case .spawnFailed(let executable, let reason):
            return "could not start \(PlainText.clipped(executable, limit: 400)): \(reason)"
        case .crashed(let signal, let phase, let stderr):
            return Self.crashed(subject, signal: signal, phase: phase, stderr: stderr)
        case .timedOut(let seconds, let phase):
            return Self.timedOut(subject, seconds: seconds, phase: phase)
        case .exited(let status, let stderr):
            return Self.exited(subject, status: status, stderr: stderr)
        case .readyBeforeLaunch(let readiness):
            return Self.readyBeforeLaunch(subject, readiness)
        case .throttleFailed(let error):
            return "cannot apply the tier to \(subject): \(error.description)"
        case .killedOverMemoryLimit(let label, let bytes):
            return "\(subject) was killed: over the \(label) of \(bytes >> 20) MiB (--enforce-memory; the device would have killed it too)"
        case .traceUnreadable(let error):
            return "the startup trace of \(subject) could not be read: \(error.description)"
        case .traceCutShort(let keptBytes):
            return "the startup trace of \(subject) could not be read: its standard error is over the \(keptBytes >> 20) MiB launchprof keeps, "
                + "so the trace in it would be cut short"
        case .stepFailed(let step, let failure):
            return failure.message(subject: step)
        case .missingPhase(let name):
            return "\(subject) never reported the phase \(PlainText.quoted(name)) that --expect-phase requires (a missing phase is never taken as 0)"
        case .exitedBeforeReady(let condition, let status, let signal, let stderr):
            return Self.exitedBeforeReady(subject, condition: condition, status: status, signal: signal, stderr: stderr)
        case .garbage(let error):
            return "\(subject) sent garbage: \(error.description)"
        case .incomplete(let lines):
            return "\(subject) exited without finishing its report (\(lines) protocol lines, no 'done')"
        case .overLimit(let limit):
            return "\(subject)'s report is over the limit and \(subject) was killed: \(limit) (see docs/limits.md)"
        case .instructionsNotCounted(let reason):
            return "no instruction counts: \(reason)"
        case .killedInBackground(let seconds, let phase):
            return Self.killedInBackground(seconds: seconds, phase: phase)
        case .missingMark(let name):
            return "\(subject) finished its report without the \(PlainText.quoted(name)) mark, which every run must have (a missing mark is never taken as 0)"
        case .callgrindFormat(let line, let reason):
            return "Callgrind output line \(line): \(reason)"
        case .invalidPattern(let pattern, let reason):
            return "\(PlainText.quoted(pattern)) is not a valid extended regular expression: \(reason)"
        }
    }

    private static func crashed(_ subject: String, signal: Int32, phase: String?, stderr: String) -> String {
        var text = "\(subject) crashed: killed by \(signalName(signal)) (signal \(signal))"
        if let phase { text += " during \(PlainText.quoted(phase))" }
        if !stderr.isEmpty { text += "\n" + stderr.trimmingTrailingNewlines }
        return text
    }

    private static func timedOut(_ subject: String, seconds: Double, phase: String?) -> String {
        var text = "\(subject) did not finish within the \(format(seconds)) s timeout and was killed"
        if let phase { text += " (it was in \(PlainText.quoted(phase)))" }
        return text + "; raise it with --timeout"
    }

    private static func exited(_ subject: String, status: Int32, stderr: String) -> String {
        let message = stderr.trimmingTrailingNewlines
        // The built-in app's stderr is its input error, which says everything; a program's is its own.
        if subject == "the app" && !message.isEmpty { return message }
        let head = "\(subject) exited with status \(status)"
        return message.isEmpty ? head + " (it wrote nothing to stderr; --ignore-failure records such runs)" : head + ":\n" + message
    }

    private static func readyBeforeLaunch(_ subject: String, _ readiness: Readiness) -> String {
        switch readiness {
        case .file(let path):
            return "--ready-when-file \(path) already exists before \(subject) is started, so its launch could not be timed: "
                + "remove it before each run (--prepare 'rm -f \(path)')"
        case .port(let port):
            return "port \(port) already accepts connections before \(subject) is started (another server is listening there, "
                + "perhaps one left running): stop it, or choose another port"
        case .output:
            return "the ready condition held before \(subject) was started"
        }
    }

    private static func exitedBeforeReady(_ subject: String, condition: String, status: Int32?, signal: Int32?, stderr: String) -> String {
        var text = "\(subject) "
        if let status { text += "exited with status \(status)" } else { text += "was killed by \(signalName(signal ?? 0))" }
        text += " before it was ready (waiting for: \(condition))"
        let message = stderr.trimmingTrailingNewlines
        return message.isEmpty ? text : text + ":\n" + message
    }

    private static func killedInBackground(seconds: Double, phase: String?) -> String {
        let tenths = (min(max(seconds, 0), 1e6) * 10).rounded() / 10
        var text = "killed in the background after \(tenths == 0 ? String(seconds) : String(tenths)) s"
        if let phase { text += " (it was in \(PlainText.quoted(phase)))" }
        return text
            + ": entering the background must finish within its budget, or the OS kills the app; the previous snapshot is kept "
            + "(a tier stretches the step like any phase; --background-budget SECONDS, up to 60, gives it longer)"
    }

    /// `SIGSEGV` for 11, and so on.
    public static func signalName(_ signal: Int32) -> String {
        SignalNames.name(signal)
    }

    /// `2` for 2.0, `2.5` for 2.5.
    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

}

extension String {
    var trimmingTrailingNewlines: String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" || last == " " { s.removeLast() }
        return String(s)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Why a launched process did not give a usable run.
public enum LaunchFailure: Error, Equatable, Sendable, CustomStringConvertible {
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
    /// The program's report went over a limit (``AppLauncher/maxProtocolBytes``,
    /// ``AppLauncher/maxProtocolRecords``) and the program was killed.
    case overLimit(String)
    /// Instructions were to be counted (`--metric instructions`) and could not be.
    case instructionsNotCounted(String)
    /// The program was still in its background step when the background budget ran out and was
    /// killed with SIGKILL, as the OS kills an app that takes too long (``AppLauncher/backgroundBudget``).
    case killedInBackground(seconds: Double, inPhase: String?)
    /// The report was complete but a mark the launcher expects (``AppLauncher/expectedMarks``) never came.
    case missingMark(String)
    /// The ready condition held before the program was started (a file left by a previous run,
    /// another server on the port).
    case readyBeforeLaunch(Readiness)
    /// The run's throttle (a tier applied from outside) could not be set up.
    case throttleFailed(String)
    /// The cgroup's memory limit (`--enforce-memory`) killed the program, as the device would.
    case killedOverMemoryLimit(label: String, bytes: Int)
    /// The run's startup trace (`--trace`) could not be read; the message names the file and place.
    case traceUnreadable(String)
    /// A `--prepare` or `--cleanup` command failed; the message names it.
    case stepFailed(String)
    /// The run never reported a phase it must have (`--expect-phase`).
    case missingPhase(String)
    /// The program exited before it was ready (`--ready-when-…`); `status` is its exit status, or
    /// `nil` when a signal ended it (`signal`).
    case exitedBeforeReady(condition: String, status: Int32?, signal: Int32?, stderr: String)

    /// The message with the built-in app as the subject.
    public var description: String { message(subject: "the app") }

    /// The message, naming the launched program `subject` (`the app`, or `python3` for `launchprof exec`).
    public func message(subject: String) -> String {
        switch self {
        case .spawnFailed(let executable, let reason):
            return "could not start \(executable): \(reason)"
        case .crashed(let signal, let phase, let stderr):
            var text = "\(subject) crashed: killed by \(Self.signalName(signal)) (signal \(signal))"
            if let phase { text += " during '\(phase)'" }
            if !stderr.isEmpty { text += "\n" + stderr.trimmingTrailingNewlines }
            return text
        case .timedOut(let seconds, let phase):
            var text = "\(subject) did not finish within the \(Self.format(seconds)) s timeout and was killed"
            if let phase { text += " (it was in '\(phase)')" }
            return text + "; raise it with --timeout"
        case .exited(let status, let stderr):
            let message = stderr.trimmingTrailingNewlines
            // The built-in app's stderr is its input error, which says everything; a program's is its own.
            if subject == "the app" && !message.isEmpty { return message }
            let head = "\(subject) exited with status \(status)"
            return message.isEmpty ? head + " (it wrote nothing to stderr; --ignore-failure records such runs)" : head + ":\n" + message
        case .readyBeforeLaunch(let readiness):
            switch readiness {
            case .file(let path):
                return
                    "--ready-when-file \(path) already exists before \(subject) is started, so its launch could not be timed: remove it before each run (--prepare 'rm -f \(path)')"
            case .port(let port):
                return
                    "port \(port) already accepts connections before \(subject) is started (another server is listening there, perhaps one left running): stop it, or choose another port"
            case .output:
                return "the ready condition held before \(subject) was started"
            }
        case .throttleFailed(let message):
            return "cannot apply the tier to \(subject): \(message)"
        case .killedOverMemoryLimit(let label, let bytes):
            return "\(subject) was killed: over the \(label) of \(bytes >> 20) MiB (--enforce-memory; the device would have killed it too)"
        case .traceUnreadable(let message):
            return "the startup trace of \(subject) could not be read: \(message)"
        case .stepFailed(let message):
            return message
        case .missingPhase(let name):
            return "\(subject) never reported the phase '\(name)' that --expect-phase requires (a missing phase is never taken as 0)"
        case .exitedBeforeReady(let condition, let status, let signal, let stderr):
            var text = "\(subject) "
            if let status { text += "exited with status \(status)" } else { text += "was killed by \(Self.signalName(signal ?? 0))" }
            text += " before it was ready (waiting for: \(condition))"
            let message = stderr.trimmingTrailingNewlines
            return message.isEmpty ? text : text + ":\n" + message
        case .garbage(let error):
            return "\(subject) sent garbage: \(error.description)"
        case .incomplete(let lines):
            return "\(subject) exited without finishing its report (\(lines) protocol lines, no 'done')"
        case .overLimit(let limit):
            return "\(subject)'s report is over the limit and \(subject) was killed: \(limit) (see docs/limits.md)"
        case .instructionsNotCounted(let reason):
            return "no instruction counts: \(reason)"
        case .killedInBackground(let seconds, let phase):
            let tenths = (min(max(seconds, 0), 1e6) * 10).rounded() / 10
            var text = "killed in the background after \(tenths == 0 ? String(seconds) : String(tenths)) s"
            if let phase { text += " (it was in '\(phase)')" }
            return text
                + ": entering the background must finish within its budget, or the OS kills the app; the previous snapshot is kept (a tier stretches the step like any phase; --background-budget SECONDS, up to 60, gives it longer)"
        case .missingMark(let name):
            return "\(subject) finished its report without the '\(name)' mark, which every run must have (a missing mark is never taken as 0)"
        }
    }

    /// `SIGSEGV` for 11, and so on.
    public static func signalName(_ signal: Int32) -> String {
        SignalNames.name(signal)
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" || last == " " { s.removeLast() }
        return String(s)
    }
}

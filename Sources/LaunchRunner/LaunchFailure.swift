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
    /// The process wrote a line the protocol does not allow.
    case garbage(ProtocolParser.Error)
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

    public var description: String {
        switch self {
        case .spawnFailed(let executable, let reason):
            return "could not start \(executable): \(reason)"
        case .crashed(let signal, let phase, let stderr):
            var text = "the app crashed: killed by \(Self.signalName(signal)) (signal \(signal))"
            if let phase { text += " during '\(phase)'" }
            if !stderr.isEmpty { text += "\n" + stderr.trimmingTrailingNewlines }
            return text
        case .timedOut(let seconds, let phase):
            var text = "the app did not finish within the \(Self.format(seconds)) s timeout and was killed"
            if let phase { text += " (it was in '\(phase)')" }
            return text + "; raise it with --timeout"
        case .exited(let status, let stderr):
            let message = stderr.trimmingTrailingNewlines
            return message.isEmpty ? "the app exited with status \(status)" : message
        case .garbage(let error):
            return "the app sent garbage: \(error.description)"
        case .incomplete(let lines):
            return "the app exited without finishing its report (\(lines) protocol lines, no 'done')"
        case .overLimit(let limit):
            return "the app's report is over the limit and the app was killed: \(limit) (see docs/limits.md)"
        case .instructionsNotCounted(let reason):
            return "no instruction counts: \(reason)"
        case .killedInBackground(let seconds, let phase):
            let tenths = (min(max(seconds, 0), 1e6) * 10).rounded() / 10
            var text = "killed in the background after \(tenths == 0 ? String(seconds) : String(tenths)) s"
            if let phase { text += " (it was in '\(phase)')" }
            return text + ": entering the background must finish within its budget, or the OS kills the app; the previous snapshot is kept (a tier stretches the step like any phase; --background-budget SECONDS, up to 60, gives it longer)"
        case .missingMark(let name):
            return "the app finished its report without the '\(name)' mark, which every run must have (a missing mark is never taken as 0)"
        }
    }

    /// `SIGSEGV` for 11, and so on.
    public static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
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

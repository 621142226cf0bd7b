#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Writes to standard error (file descriptor 2) and asks whether it is a terminal.
enum StandardError {
    /// Writes `text`, with any command-line argument it echoes that holds a control character
    /// escaped (``Launchprof/escapingArguments(_:arguments:)``): every message goes through here.
    static func write(_ text: String) {
        WriteAll.write(Launchprof.escapingArguments(text), to: 2)
    }

    /// Writes one warning line, `launchprof: warning: <text>`: every warning is printed here.
    static func warning(_ text: String) {
        write("launchprof: warning: \(text)\n")
    }

    /// Writes a result's warnings (its ``LaunchWarning``s, as worded when the result was made), one line each.
    static func warnings(of result: LaunchResult) {
        for text in result.warnings { warning(text) }
    }

    /// Writes a comparison's caveats, `launchprof: caveat: <text>`, one line each.
    static func caveats(_ caveats: [String]) {
        for caveat in caveats { write("launchprof: caveat: \(caveat)\n") }
    }

    /// `true` when standard error is a terminal (progress is shown only then).
    static var isTerminal: Bool { isatty(2) != 0 }
}

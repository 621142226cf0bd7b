#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LaunchCore

/// Writes to standard error (file descriptor 2) and asks whether it is a terminal.
enum StandardError {
    /// Writes `text`, with any command-line argument it echoes that holds a control character
    /// escaped (``escapingArguments(_:arguments:)``): every message goes through here.
    static func write(_ text: String) {
        WriteAll.write(escapingArguments(text), to: 2)
    }

    /// Writes one error line, `launchprof: error: <message>` (a usage text as it is): every error
    /// the CLI's edge (``Launchprof/runMain()``) reports is printed here.
    static func error(_ message: String) {
        // ArgumentParser's own `Error: …` (a bad option, a failed validate()) is worded as every
        // other error of launchprof's, so that one prefix finds them all.
        var text =
            message.hasPrefix("Error: ")
            ? "launchprof: error: " + message.dropFirst("Error: ".count)
            : message.hasPrefix("Usage:") ? message : "launchprof: error: \(message)"
        if !text.hasSuffix("\n") { text += "\n" }
        write(text)
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

    /// `message` with each command-line argument that holds a control character (a newline in a
    /// `--tap` key, an escape sequence in a path) shown as ``PlainText/oneLine(_:)`` does: messages
    /// that echo an argument (ArgumentParser's `The value '…' is invalid`, a path at the start of a
    /// message) then cannot start a forged line of their own.
    static func escapingArguments(_ message: String, arguments: [String] = CommandLine.arguments) -> String {
        var safe = message
        // Longest first: an argument that contains a shorter one is replaced whole.
        for argument in Set(arguments).sorted(by: { $0.utf8.count > $1.utf8.count })
        where argument.unicodeScalars.contains(where: { PlainText.visibleControl($0) != nil }) {
            safe = safe.replacingOccurrences(of: argument, with: PlainText.oneLine(argument))
        }
        return safe
    }
}

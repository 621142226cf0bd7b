#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard error (file descriptor 2) and asks whether it is a terminal.
enum StandardError {
    /// Writes `text`, with any command-line argument it echoes that holds a control character
    /// escaped (``Launchprof/escapingArguments(_:arguments:)``): every message goes through here.
    static func write(_ text: String) {
        var bytes = Array(Launchprof.escapingArguments(text).utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// `true` when standard error is a terminal (progress is shown only then).
    static var isTerminal: Bool { isatty(2) != 0 }
}

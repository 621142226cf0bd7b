#if canImport(Glibc)
import Glibc
#endif

/// launchprof's own standard streams, written directly (no buffering shared with `print`).
enum StandardStreams {
    /// Copies a program's output to launchprof's stderr (`--show-output`), so the report on stdout
    /// stays the report. A closed or full stderr loses the bytes, never blocks the run for long.
    static func copyToStandardError(_ bytes: ArraySlice<UInt8>) {
        var rest = bytes
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            rest = rest.dropFirst(n)
        }
    }
}

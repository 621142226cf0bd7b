#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// launchprof's own standard streams, written directly (no buffering shared with `print`).
enum StandardStreams {
    /// Copies a program's output to launchprof's stderr (`--show-output`), so the report on stdout
    /// stays the report. A closed or full stderr loses the bytes, never blocks the run for long.
    static func copyToStandardError(_ bytes: ArraySlice<UInt8>) {
        WriteAll.write(bytes, to: 2)
    }
}

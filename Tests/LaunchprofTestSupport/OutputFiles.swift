import Foundation

/// Runs a `Process` with its standard output and error written to files, read once it has exited.
///
/// Not pipes: a pipe's end of file never comes while another process holds its write end, and a
/// process this test binary starts at the same moment on another thread (the throwaway PostgreSQL
/// server, a session spawner, another test's child) can inherit that end and outlive the run (seen:
/// a hang in CI). A file inherited that way costs nothing: it is read after the child has exited.
public enum OutputFiles {
    public struct Captured: Sendable {
        public var stdout: Data
        public var stderr: Data
    }

    /// A child still running at its deadline (it was killed).
    public struct TimedOut: Error, CustomStringConvertible {
        public var seconds: Double
        public var description: String { "the child was still running after \(seconds) s (killed)" }
    }

    /// Runs `process` (executable, arguments, environment and directory already set), waits for it
    /// and returns what it wrote; its standard input is left as the caller set it. With `deadline`,
    /// a child still running that many seconds after it started is killed and ``TimedOut`` thrown:
    /// a hang is caught by the child's own time, not by a time limit that also counts whatever the
    /// test process did before (a calibration made once, a loaded machine's scheduling).
    public static func run(_ process: Process, deadline: Double? = nil) throws -> Captured {
        let scratch = try TemporaryDirectory.make(prefix: "process-output")
        defer { TemporaryDirectory.remove(scratch) }
        let outPath = scratch + "/stdout", errPath = scratch + "/stderr"
        guard FileManager.default.createFile(atPath: outPath, contents: nil), FileManager.default.createFile(atPath: errPath, contents: nil),
            let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath)
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: scratch]) }
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let deadline {
            let end = Date().addingTimeInterval(deadline)
            while process.isRunning, Date() < end { usleep(10_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw TimedOut(seconds: deadline)
            }
        }
        process.waitUntilExit()
        return Captured(stdout: FileManager.default.contents(atPath: outPath) ?? Data(), stderr: FileManager.default.contents(atPath: errPath) ?? Data())
    }
}

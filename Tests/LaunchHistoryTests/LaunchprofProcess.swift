import Foundation
import LaunchprofTestSupport

/// The built `launchprof` and `git`, run as a user would, for the tests that store through the CLI.
enum LaunchprofProcess {
    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` (`launchprof`'s when the first is not an absolute path) in `directory`.
    static func run(_ arguments: [String], in directory: String) throws -> Outcome {
        let process = Process()
        let program = arguments.first?.hasPrefix("/") == true ? arguments[0] : BuiltProducts.executable("launchprof")
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments.first?.hasPrefix("/") == true ? Array(arguments.dropFirst()) : arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["LAUNCHPROF_STORE"] = nil
        process.environment = environment
        // Files, not pipes: a pipe's end of file never comes while another process holds its write end,
        // and a process this test binary starts at the same moment on another thread (the throwaway
        // PostgreSQL server, a session spawner) can inherit it and live on (seen: a hang in CI).
        let scratch = try TemporaryDirectory.make(prefix: "launchprof-process")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let outPath = scratch + "/stdout", errPath = scratch + "/stderr"
        guard FileManager.default.createFile(atPath: outPath, contents: nil), FileManager.default.createFile(atPath: errPath, contents: nil),
            let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath)
        else { throw TestFailure("cannot create the output files in \(scratch)") }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let outData = FileManager.default.contents(atPath: outPath) ?? Data()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A new git repository of one empty commit; returns its path.
    static func repository() throws -> String {
        let path = try TemporaryDirectory.make(prefix: "history-repo")
        let git = ["/usr/bin/env", "git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
        _ = try run(git + ["init", "-q"], in: path)
        let made = try run(git + ["commit", "-q", "--allow-empty", "-m", "c in \(path)"], in: path)
        guard made.status == 0 else { throw TestFailure("git commit in \(path): \(made.stderr)") }
        return path
    }
}

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
        // Files, not pipes (OutputFiles): a server started at the same moment could inherit a pipe's write end.
        let output = try OutputFiles.run(process)
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: output.stdout, as: UTF8.self), stderr: String(decoding: output.stderr, as: UTF8.self))
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

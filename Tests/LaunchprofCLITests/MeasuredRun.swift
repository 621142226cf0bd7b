import Foundation
import LaunchCore

/// Runs `launchprof` as ``CLI/run(_:in:environment:)`` does, and also reports what `wait4` says of
/// it: its peak resident memory and its wall time (for tests of bounded memory and honoured timeouts).
extension CLI {
    struct MeasuredOutcome {
        var outcome: Outcome
        /// Peak resident set of the launchprof process itself (`ru_maxrss`), in bytes.
        var peakBytes: Int
        var seconds: Double
    }

    static func runMeasured(_ arguments: [String]) throws -> MeasuredOutcome {
        let out = temporaryPath("stdout"), err = temporaryPath("stderr")
        defer { unlink(out); unlink(err) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = [executable] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnvp = envp.map { strdup($0) } + [nil]
        defer { for p in cArgv + cEnvp { free(p) } }
        var pid: pid_t = 0
        let start = Date()
        let status = posix_spawn(&pid, executable, &actions, nil, &cArgv, &cEnvp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        var wstatus: Int32 = 0
        var usage = rusage()
        while wait4(pid, &wstatus, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        let exitStatus = (wstatus & 0x7f) == 0 ? (wstatus >> 8) & 0xff : 128 + (wstatus & 0x7f)
        return MeasuredOutcome(
            outcome: Outcome(
                status: exitStatus, stdout: String(decoding: try FileIO.read(out), as: UTF8.self),
                stderr: String(decoding: try FileIO.read(err), as: UTF8.self)),
            peakBytes: Int(usage.ru_maxrss) * 1024, seconds: seconds)
    }

    /// Writes `source` to a temporary Python script and returns its path.
    static func pythonScript(_ source: String) throws -> String {
        let path = temporaryPath("program.py")
        try FileIO.writeAtomically(source, to: path)
        return path
    }
}

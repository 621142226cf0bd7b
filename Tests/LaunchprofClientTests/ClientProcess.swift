import Foundation
import LaunchprofTestSupport
import Glibc
import LaunchCore

/// Runs a program that speaks the line protocol as `launchprof exec` would: a pipe at descriptor 3,
/// `LAUNCHPROF_FD` as the test says, stdin `/dev/null`, stdout and stderr captured.
enum ClientProcess {
    static let packageRoot = BuiltProducts.packageRoot

    static let programs = packageRoot + "/Tests/LaunchprofClientTests/Programs"

    /// What the program finds at descriptor 3.
    enum Descriptor {
        /// A pipe's write end; the test reads what the program writes.
        case pipe
        /// A pipe's write end whose read end the test closed before the spawn: launchprof went away.
        case brokenPipe
        /// A pipe's read end: open, but not for writing.
        case readOnly
        /// Nothing.
        case closed
    }

    struct Outcome {
        /// The exit status, or 128 + the signal that killed the program.
        var status: Int32
        var stdout: String
        var stderr: String
        /// What the program wrote at descriptor 3.
        var output: [UInt8]
        var spawnReading: UInt64

        /// The protocol read by the launcher's own parser, line by line as the launcher does.
        func report() throws -> ProtocolReport {
            try ProtocolReport(output, spawnReading: spawnReading)
        }
    }

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// The absolute path of `name` on PATH, or nil.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// Runs `executable` with `arguments` (paths in them absolute: the working directory is the test's). `launchprofFD` is the value of
    /// `LAUNCHPROF_FD` (nil: unset); the rest of the environment is the test's.
    static func run(
        _ executable: String, _ arguments: [String] = [], launchprofFD: String? = "3",
        descriptor: Descriptor = .pipe, timeout: Int32 = 60
    ) throws -> Outcome {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var readEnd = fds[0], writeEnd = fds[1]
        defer {
            if readEnd >= 0 { close(readEnd) }
            if writeEnd >= 0 { close(writeEnd) }
        }
        let stdoutPath = temporaryPath("stdout"), stderrPath = temporaryPath("stderr")
        defer { unlink(stdoutPath); unlink(stderrPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        switch descriptor {
        case .pipe, .brokenPipe: posix_spawn_file_actions_adddup2(&actions, writeEnd, 3)
        case .readOnly: posix_spawn_file_actions_adddup2(&actions, readEnd, 3)
        case .closed: posix_spawn_file_actions_addclose(&actions, 3)
        }
        if descriptor == .brokenPipe {
            close(readEnd)
            readEnd = -1
        }
        // As launchprof does: no blocked signals, SIGPIPE's default action (killing the program).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var noSignals = sigset_t(), defaults = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var environment = ProcessInfo.processInfo.environment
        environment["LAUNCHPROF_FD"] = launchprofFD
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawnReading = MonotonicClock.nanoseconds()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(status)))") }
        close(writeEnd)
        writeEnd = -1

        var output: [UInt8] = []
        if readEnd >= 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, timeout * 1000)
                if polled < 0 && errno == EINTR { continue }
                guard polled > 0 else {
                    kill(pid, SIGKILL)
                    break
                }
                let n = read(readEnd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                output += buffer[..<n]
            }
        }
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
        let exitStatus = waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : 128 + (waitStatus & 0x7f)
        return Outcome(
            status: exitStatus, stdout: contents(stdoutPath), stderr: contents(stderrPath),
            output: output, spawnReading: spawnReading)
    }

    /// A new path named after `name` in the test process's directory (removed when it exits).
    static func temporaryPath(_ name: String) -> String { TemporaryDirectory.uniquePath(name) }

    private static func contents(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}

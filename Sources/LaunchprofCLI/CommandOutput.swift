#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper command (`git`, `ldd`, the app's `--check-tap`) and returns its standard output (or error): spawned directly
/// (`posix_spawnp`), stdin and stderr on /dev/null, stdout read through a pipe up to `limit` bytes.
/// Foundation's `Process` starts a thread and an event loop for the same, several milliseconds at
/// the end of every session on a loaded machine.
enum CommandOutput {
    /// The output of `arguments` (the first is looked up in `PATH`), or `nil` when it cannot be
    /// started or exits non-zero.
    static func run(_ arguments: [String], limit: Int = 1 << 20) -> [UInt8]? {
        guard let (output, exit) = spawn(arguments, capturing: 1, limit: limit) else { return nil }
        guard output.count <= limit, exit & 0x7f == 0, (exit >> 8) & 0xff == 0 else { return nil }
        return output
    }

    /// The exit status (-1 for a signal) and standard error of `arguments` (stdout on /dev/null), up
    /// to `limit` bytes of it, or `nil` when it cannot be started.
    static func status(_ arguments: [String], limit: Int = 1 << 16) -> (status: Int32, stderr: [UInt8])? {
        guard let (output, exit) = spawn(arguments, capturing: 2, limit: limit) else { return nil }
        return (exit & 0x7f == 0 ? (exit >> 8) & 0xff : -1, Array(output.prefix(limit)))
    }

    /// Spawns `arguments` with stdin and the descriptor other than `fd` (1 or 2) on /dev/null, `fd`
    /// read through a pipe up to just over `limit` bytes; its output and `waitpid`'s raw status.
    private static func spawn(_ arguments: [String], capturing fd: Int32, limit: Int) -> ([UInt8], Int32)? {
        var fds: [Int32] = [-1, -1]
        guard !arguments.isEmpty, pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], fd)
        posix_spawn_file_actions_addopen(&actions, fd == 1 ? 2 : 1, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        close(fds[1])
        defer { close(fds[0]) }
        guard status == 0 else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while output.count <= limit {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        var exit: Int32 = 0
        while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
        return (output, exit)
    }

    /// ``run(_:limit:)``'s output as text without the surrounding whitespace.
    static func text(_ arguments: [String]) -> String? {
        run(arguments).map { String(decoding: $0, as: UTF8.self).trimmingWhitespace() }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingWhitespace() -> String {
        let blank: Set<Character> = [" ", "\t", "\n", "\r"]
        guard let first = firstIndex(where: { !blank.contains($0) }), let last = lastIndex(where: { !blank.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}

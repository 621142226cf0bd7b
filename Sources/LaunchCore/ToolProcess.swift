#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper tool (`objcopy`, `cc`, `swift demangle`, `perf`), its standard streams from and to
/// files: to completion, or spawned for the caller to wait for.
public enum ToolProcess {
    /// Runs `executable arguments…` with standard input read from `stdin`, standard output written
    /// to `stdout` (created or truncated) and standard error discarded; returns its exit status (-1
    /// when it could not run or was killed). Killed if launchprof ends first (it runs in launchprof's
    /// process group, which SIGTERM to launchprof alone does not reach).
    public static func run(_ executable: String, _ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null") -> Int32 {
        guard let (pid, registration) = spawn(executable, arguments, stdin: stdin, stdout: stdout) else { return -1 }
        defer { ExitCleanup.unregister(registration) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// Spawns `executable arguments…` with standard input read from `stdin`, standard output written
    /// to `stdout` (created or truncated) and standard error discarded, or with `stderrToStdout` into
    /// the same file; registered to be killed if launchprof ends first: the caller waits for it and
    /// unregisters it. `nil` when it could not be spawned (`errno` then says why).
    ///
    /// (A flag, not an enum: the built-in app links this module, and such an enum, with its
    /// conformances, measurably added some 6,000 instructions to the app's first phases.)
    public static func spawn(
        _ executable: String, _ arguments: [String], stdin: String = "/dev/null", stdout: String, stderrToStdout: Bool = false
    ) -> (pid: pid_t, registration: ExitCleanup.Registration)? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if stderrToStdout {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let registration = ExitCleanup.guarded { register -> ExitCleanup.Registration? in
            let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            guard status == 0 else {
                errno = status
                return nil
            }
            let spawned = pid
            return register { kill(spawned, SIGKILL) }
        }
        return registration.map { (pid, $0) }
    }
}

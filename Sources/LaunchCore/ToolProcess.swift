#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper tool (`objcopy`, `cc`, `swift demangle`) to completion, its standard streams from
/// and to files.
public enum ToolProcess {
    /// Runs `executable arguments…` with standard input read from `stdin`, standard output written
    /// to `stdout` (created or truncated) and standard error discarded; returns its exit status (-1
    /// when it could not run or was killed). Killed if launchprof ends first (it runs in launchprof's
    /// process group, which SIGTERM to launchprof alone does not reach).
    public static func run(_ executable: String, _ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null") -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let registration = ExitCleanup.guarded { register -> ExitCleanup.Registration? in
            guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
            let spawned = pid
            return register { kill(spawned, SIGKILL) }
        }
        guard let registration else { return -1 }
        defer { ExitCleanup.unregister(registration) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}

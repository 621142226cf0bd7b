import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs a `--build` command line in the current directory: `/bin/sh -c`, stdin /dev/null, stdout and
/// stderr into `log`, in a process group of its own. Registered with ``ExitCleanup`` while it runs, so
/// an interrupted bisect ends the whole group (the compiler a `make` started too) before it removes
/// the work tree, and no build writes into a directory being removed. After it ends, whatever it left
/// running in its group is ended as well. Ending is SIGTERM first (a compiler then removes its own
/// temporary files), SIGKILL for what is still there after 2 s.
enum BisectBuild {
    /// The shell's exit status, or -1 when it could not start or was killed. `temporary` is the
    /// build's `TMPDIR` (a directory of launchprof's own, removed with the work tree: what a
    /// compiler or SwiftPM leaves there goes with it).
    static func run(_ command: String, log: String, temporary: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var entry = environ
        while let variable = entry.pointee {
            if strncmp(variable, "TMPDIR=", 7) != 0 { environment.append(strdup(variable)) }
            entry += 1
        }
        environment += [strdup("TMPDIR=" + temporary), nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let registration = ExitCleanup.guarded { register -> ExitCleanup.Registration? in
            guard posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environment) == 0 else { return nil }
            let group = pid
            return register { end(group) }
        }
        guard let registration else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR {
                status = -1
                break
            }
        }
        end(pid)
        ExitCleanup.unregister(registration)
        guard status >= 0 else { return -1 }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// Ends every process of `group`: SIGTERM, then SIGKILL after 2 s; reaps those that are
    /// launchprof's children (the shell, and orphans it adopts as a subreaper).
    static func end(_ group: pid_t) {
        kill(-group, SIGTERM)
        let deadline = MonotonicClock.nanoseconds() + 2_000_000_000
        while MonotonicClock.nanoseconds() < deadline {
            while waitpid(-group, nil, WNOHANG) > 0 {}
            if kill(-group, 0) != 0 && errno == ESRCH { return }
            usleep(10_000)
        }
        kill(-group, SIGKILL)
        while waitpid(-group, nil, WNOHANG) > 0 {}
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The `posix_spawn` attributes launchprof starts its helpers and programs with.
enum SpawnAttributes {
    /// Initialises `attributes` (the caller destroys them) as a shell starts a command: no signal
    /// blocked, SIGPIPE at its default action; with `newGroup`, in a process group of its own.
    static func prepare(_ attributes: inout posix_spawnattr_t, newGroup: Bool) {
        posix_spawnattr_init(&attributes)
        let groupFlag = newGroup ? Int16(POSIX_SPAWN_SETPGROUP) : 0
        posix_spawnattr_setflags(&attributes, groupFlag | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        if newGroup { posix_spawnattr_setpgroup(&attributes, 0) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// `gettid` and `tgkill`, which glibc has (2.30+) but Swift's Glibc module does not import (they
/// need `_GNU_SOURCE`): looked up once with `dlsym`.
package enum LinuxThreadCalls {
    private typealias GetTid = @convention(c) () -> pid_t
    private typealias TgKill = @convention(c) (pid_t, pid_t, Int32) -> Int32

    private static let getTid: GetTid? = lookUp("gettid")
    private static let tgKill: TgKill? = lookUp("tgkill")

    /// The calling thread's id (the kernel's tid, which cgroup `tasks` files list); 0 if unknown.
    package static func currentThread() -> pid_t { getTid?() ?? 0 }

    /// Whether `tid` is a thread of this process (`tgkill(getpid(), tid, 0)`).
    package static func isOwnThread(_ tid: pid_t) -> Bool {
        guard let tgKill, tid > 0 else { return false }
        return tgKill(getpid(), tid, 0) == 0
    }

    /// Puts the calling thread at the lowest real-time priority (`SCHED_FIFO` 1) where this process
    /// may (root, `CAP_SYS_NICE`): it then wakes on time however busy the machine is, ahead of every
    /// ordinary thread. Elsewhere it stays as it was. Only for a thread that sleeps nearly always.
    static func raiseToRealTimeIfAllowed() {
        var parameters = sched_param()
        parameters.sched_priority = 1
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }

    /// Raises the calling thread to `SCHED_FIFO` 1 with `SCHED_RESET_ON_FORK` where allowed, so that
    /// it runs on at once when a child it spawns has started (which starts as an ordinary thread);
    /// returns whether it did. ``lowerToOrdinary(_:)`` undoes it.
    static func raiseForSpawn() -> Bool {
        var parameters = sched_param()
        parameters.sched_priority = 1
        // SCHED_RESET_ON_FORK (0x40000000), which Swift's Glibc does not import.
        return pthread_setschedparam(pthread_self(), SCHED_FIFO | 0x4000_0000, &parameters) == 0
    }

    /// Puts `thread` (of this process) back to the ordinary scheduling policy.
    static func lowerToOrdinary(_ thread: pthread_t) {
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = pthread_setschedparam(thread, SCHED_OTHER, &parameters)
    }

    /// Calls `body` with thread attributes for a new thread at `SCHED_FIFO` 1 (see
    /// ``raiseToRealTimeIfAllowed()``); `pthread_create` with them fails (EPERM) where that is not allowed.
    static func withRealTimeAttributes(_ body: (UnsafePointer<pthread_attr_t>) -> Int32) -> Int32 {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return EINVAL }
        defer { pthread_attr_destroy(&attributes) }
        var parameters = sched_param()
        parameters.sched_priority = 1
        guard pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED)) == 0,
            pthread_attr_setschedpolicy(&attributes, SCHED_FIFO) == 0,
            pthread_attr_setschedparam(&attributes, &parameters) == 0
        else { return EINVAL }
        return body(&attributes)
    }

    private static func lookUp<T>(_ name: String) -> T? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: T.self)
    }
}

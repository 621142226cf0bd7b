#if canImport(Glibc)
import Glibc
#endif

/// `gettid` and `tgkill`, which glibc has (2.30+) but Swift's Glibc module does not import (they
/// need `_GNU_SOURCE`): looked up once with `dlsym`.
enum LinuxThreadCalls {
    private typealias GetTid = @convention(c) () -> pid_t
    private typealias TgKill = @convention(c) (pid_t, pid_t, Int32) -> Int32

    private static let getTid: GetTid? = lookUp("gettid")
    private static let tgKill: TgKill? = lookUp("tgkill")

    /// The calling thread's id (the kernel's tid, which cgroup `tasks` files list); 0 if unknown.
    static func currentThread() -> pid_t { getTid?() ?? 0 }

    /// Whether `tid` is a thread of this process (`tgkill(getpid(), tid, 0)`).
    static func isOwnThread(_ tid: pid_t) -> Bool {
        guard let tgKill, tid > 0 else { return false }
        return tgKill(getpid(), tid, 0) == 0
    }

    private static func lookUp<T>(_ name: String) -> T? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: T.self)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The current process's identity.
enum ProcessIdentity {
    static var pid: Int32 { getpid() }
}

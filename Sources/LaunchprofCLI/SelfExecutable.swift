#if canImport(Glibc)
import Glibc
#endif

/// The path of the running launchprof binary, which `run` re-executes as the app.
enum SelfExecutable {
    static func path() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

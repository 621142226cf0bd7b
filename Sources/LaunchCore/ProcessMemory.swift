#if canImport(Glibc)
import Glibc
#endif

/// The current process's memory, from `/proc/self`.
public enum ProcessMemory {
    /// Resident-set size in bytes (`/proc/self/statm`), or `nil` when it cannot be read.
    public static func residentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let n = withUnsafeMutableBytes(of: &buffer) { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        // "size resident shared …" in pages: the second number.
        return withUnsafeBytes(of: &buffer) { raw -> Int? in
            var field = 0, value = 0, seenDigit = false
            for i in 0..<n {
                let c = raw[i]
                if c >= 48 && c <= 57 {
                    value = value * 10 + Int(c - 48)
                    seenDigit = true
                } else if seenDigit {
                    if field == 1 { return value * Int(sysconf(Int32(_SC_PAGESIZE))) }
                    field += 1
                    value = 0
                    seenDigit = false
                }
            }
            return field == 1 && seenDigit ? value * Int(sysconf(Int32(_SC_PAGESIZE))) : nil
        }
    }

    /// Peak resident-set size of this process so far, in bytes (`getrusage`).
    public static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}

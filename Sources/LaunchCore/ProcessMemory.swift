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

    /// Dirty memory in bytes: `Private_Dirty` plus `Shared_Dirty` of `/proc/self/smaps_rollup` (what
    /// a suspended app is charged for: clean pages can be dropped and read again), or `nil` when the
    /// file cannot be read (a kernel before 4.14). At most 16 KiB of it is read.
    public static func dirtyBytes() -> Int? {
        let fd = open("/proc/self/smaps_rollup", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 16384)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        return dirtyBytes(smapsRollup: String(decoding: bytes[..<count], as: UTF8.self))
    }

    /// `Private_Dirty` + `Shared_Dirty` (in kB) of a `smaps_rollup` text, in bytes; `nil` without both.
    public static func dirtyBytes(smapsRollup text: String) -> Int? {
        var total = 0, found = 0
        for line in text.split(separator: "\n") where line.hasPrefix("Private_Dirty:") || line.hasPrefix("Shared_Dirty:") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let kB = Int(fields[1]), kB >= 0, kB < Int.max / 2048 else { return nil }
            total += kB * 1024
            found += 1
        }
        return found == 2 ? total : nil
    }

    /// Peak resident-set size of this process so far, in bytes (`getrusage`).
    public static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}

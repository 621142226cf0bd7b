#if canImport(Glibc)
import Glibc
#endif

/// Finding a byte or a byte string in a trace with the C library's `memchr` and `memcmp`: many
/// times faster than a loop over the bytes for the long runs a line or a file is (and a loop that
/// the fuzzer's instrumentation does not slow down).
enum ByteSearch {
    /// The first `byte` in `bytes[from..<to]`.
    static func first(_ byte: UInt8, in bytes: [UInt8], from: Int, to: Int) -> Int? {
        guard from >= 0, from < to, to <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            return memchr(base + from, Int32(byte), to - from).map { base.distance(to: UnsafeRawPointer($0)) }
        }
    }

    /// The first occurrence of `pattern` (not empty) in `bytes[from..<to]`.
    static func first(_ pattern: [UInt8], in bytes: [UInt8], from: Int, to: Int) -> Int? {
        guard let lead = pattern.first, from >= 0, to <= bytes.count, to - from >= pattern.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            pattern.withUnsafeBufferPointer { needle in
                let base = UnsafeRawPointer(buffer.baseAddress!)
                var start = from
                while to - start >= needle.count, let hit = memchr(base + start, Int32(lead), to - start - needle.count + 1) {
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
                    start = at + 1
                }
                return nil
            }
        }
    }

    /// Whether `bytes[from..<to]` holds a byte below 0x20 (a control character), eight at a time.
    static func containsControlCharacter(_ bytes: [UInt8], from: Int, to: Int) -> Bool {
        guard from >= 0, from < to, to <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            var i = from
            while to - i >= 8 {
                let x = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // A byte below 0x20 borrows into its top bit (the "has less than" trick).
                if (x &- 0x2020_2020_2020_2020) & ~x & 0x8080_8080_8080_8080 != 0 { return true }
                i += 8
            }
            while i < to {
                if buffer[i] < 0x20 { return true }
                i += 1
            }
            return false
        }
    }
}

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
}

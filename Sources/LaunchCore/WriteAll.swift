#if canImport(Glibc)
import Glibc
#endif

/// The one loop that writes a whole buffer to a file descriptor: short writes are continued and an
/// interrupted write (`EINTR`, a signal arriving) is retried, so no caller loses bytes to either.
public enum WriteAll {
    /// Writes all of `bytes` to `fd`. Returns `0` on success, else the `errno` of the failed
    /// write (`EIO` for a write that returned 0).
    @discardableResult
    public static func write(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            offset += n
        }
        return 0
    }

    /// Writes all of `bytes` to `fd`; as the buffer version does.
    @discardableResult
    public static func write(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        bytes.withUnsafeBytes { write($0, to: fd) }
    }

    /// Writes all of `bytes` to `fd`.
    @discardableResult
    public static func write(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> Int32 {
        bytes.withUnsafeBytes { write($0, to: fd) }
    }

    /// Writes `text` as UTF-8 to `fd`; see the byte version.
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Int32 {
        write(Array(text.utf8), to: fd)
    }
}

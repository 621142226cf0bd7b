#if canImport(Glibc)
import Glibc
#endif

/// Why a file read in chunks (``FileIO/readChunks(_:limit:_:)``) stopped: the file, or its consumer.
public enum ChunkedReadError<Failure: Error>: Error {
    /// The file could not be opened or read: the system's reason.
    case unreadable(String)
    /// The file holds more than the limit.
    case tooLarge
    /// The consumer refused what it read.
    case consumer(Failure)
}

extension FileIO {
    /// Reads `path` in 64 KiB chunks, at most `limit` bytes, never whole: each chunk is appended to
    /// `pending`, which `consume` is called with and leaves what it did not use in (an incomplete
    /// line). Returns what was left at the end. Like ``read(_:limit:)-(_,Int)``, it reads regular
    /// files only: a FIFO, device or directory is refused, never waited on.
    public static func readChunks<Failure: Error>(
        _ path: String, limit: Int, _ consume: (_ pending: inout [UInt8]) throws(Failure) -> Void
    ) throws(ChunkedReadError<Failure>) -> [UInt8] {
        let fd: Int32
        do { fd = try openRegularFile(path).fd } catch { throw .unreadable(error.reason) }
        defer { close(fd) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { return pending }
            total += count
            guard total <= limit else { throw .tooLarge }
            pending += chunk[0..<count]
            do { try consume(&pending) } catch { throw .consumer(error) }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a JSON document, from memory or from a file read in bounded chunks, with the line
/// and column of the current byte for messages.
///
/// A file is opened once and checked on the opened descriptor (`fstat`): a regular file of at
/// most ``ResultLimits/maximumFileBytes``. It is read into one buffer of twice the longest token
/// plus a chunk; consumed bytes are dropped as it refills, so a 150 MB result never sits in
/// memory whole. A token (string or number) is always contiguous in the buffer.
final class JSONInput {
    /// The file name in messages.
    let path: String
    private var fd: Int32 = -1
    private var owned: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    // The cursor is read and moved for every byte: its fields skip the runtime exclusivity checks
    // (only the thread that owns this input touches them, never through overlapping accesses).
    /// The buffer; `base[pos..<end]` are the bytes not yet consumed.
    @exclusivity(unchecked) private(set) var base: UnsafePointer<UInt8>
    @exclusivity(unchecked) var pos = 0
    @exclusivity(unchecked) private(set) var end = 0
    /// Bytes dropped before `base[0]`.
    @exclusivity(unchecked) private var dropped = 0
    @exclusivity(unchecked) private(set) var atEndOfInput: Bool
    /// 1-based line of `pos`, and the offset (in the whole input) of that line's first byte.
    @exclusivity(unchecked) var line = 1
    @exclusivity(unchecked) var lineStart = 0

    static let chunkBytes = 1 << 20

    /// An in-memory document; `bytes` must outlive the input.
    init(path: String, bytes: UnsafeBufferPointer<UInt8>) {
        self.path = path
        base = UnsafePointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
        end = bytes.count
        atEndOfInput = true
    }

    /// Opens `path`: a regular file of at most `limit` bytes.
    init(path: String, limit: Int) throws(ResultError) {
        self.path = path
        atEndOfInput = false
        base = UnsafePointer(bitPattern: 1)!
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Self.systemError(path) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = Self.systemError(path)
            close(descriptor)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file (a device, FIFO or socket)"
            throw ResultError.notRegularFile(path: path, kind: kind)
        }
        guard info.st_size <= limit else {
            close(descriptor)
            throw ResultError.tooLarge(path: path, bytes: Int(info.st_size), limit: limit)
        }
        // Regular files never block; blocking mode back for plain reads.
        _ = fcntl(descriptor, F_SETFL, 0)
        fd = descriptor
        capacity = 2 * ResultLimits.maximumTokenBytes + Self.chunkBytes
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        owned = buffer
        base = UnsafePointer(buffer)
        self.limit = limit
    }

    private var limit = Int.max

    deinit {
        if fd >= 0 { close(fd) }
        owned?.deallocate()
    }

    /// The offset of `pos` in the whole input.
    var offset: Int { dropped + pos }
    /// The offset of `base[p]` in the whole input.
    func offset(at p: Int) -> Int { dropped + p }
    var column: Int { offset - lineStart + 1 }

    /// Reads more bytes, keeping `base[pos..<end]` (moved to the front). `false` at the end of input.
    func refill() throws(ResultError) -> Bool {
        guard !atEndOfInput, let buffer = owned else { return false }
        let kept = end - pos
        if pos > 0 {
            if kept > 0 { memmove(buffer, buffer + pos, kept) }
            dropped += pos
            pos = 0
            end = kept
        }
        let room = capacity - end
        guard room > 0 else { return false }
        while true {
            let n = read(fd, buffer + end, Swift.min(room, Self.chunkBytes))
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.systemError(path)
            }
            if n == 0 {
                atEndOfInput = true
                return false
            }
            end += n
            // The file grew while being read: stop at the limit rather than read without end.
            if dropped + end > limit {
                throw ResultError.grewPastLimit(path: path, limit: limit)
            }
            return true
        }
    }

    private static func systemError(_ path: String) -> ResultError {
        .cannotRead(path: path, reason: String(cString: strerror(errno)))
    }
}

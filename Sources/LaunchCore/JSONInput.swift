#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a JSON document, from memory or from a file read in bounded chunks, with the line
/// and column of the current byte for messages.
///
/// A file is opened once and checked on the opened descriptor (`fstat`): a regular file of at
/// most the caller's limit (a result's is ``InputLimit``-sized, 1 GiB). It is read into one buffer
/// of twice the longest token plus a chunk; consumed bytes are dropped as it refills, so a 150 MB
/// result never sits in memory whole. A token (string or number) is always contiguous in the buffer.
///
/// The one input of every JSON reader (``JSONScanner``): the result readers stream files through
/// it, ``JSONParser`` and the trace readers read bytes already in memory.
public final class JSONInput {
    /// The file name in messages.
    public let path: String
    /// The longest string or number token ``JSONScanner`` accepts from this input, in bytes.
    public let maximumTokenBytes: Int
    private var fd: Int32 = -1
    private var owned: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    // The cursor is read and moved for every byte: its fields skip the runtime exclusivity checks
    // (only the thread that owns this input touches them, never through overlapping accesses).
    /// The buffer; `base[pos..<end]` are the bytes not yet consumed.
    @exclusivity(unchecked) public private(set) var base: UnsafePointer<UInt8>
    @exclusivity(unchecked) public var pos = 0
    /// The end of the bytes in the buffer (for an in-memory input, the end of the window read).
    @exclusivity(unchecked) public var end = 0
    /// Bytes dropped before `base[0]`.
    @exclusivity(unchecked) private var dropped = 0
    @exclusivity(unchecked) public private(set) var atEndOfInput: Bool
    /// 1-based line of `pos`, and the offset (in the whole input) of that line's first byte.
    @exclusivity(unchecked) public var line = 1
    @exclusivity(unchecked) public var lineStart = 0

    static let chunkBytes = 1 << 20

    /// The longest token by default (1 MiB): a result's phase names and warnings, a trace's names.
    public static let defaultMaximumTokenBytes = 1 << 20

    /// An in-memory document; `bytes` must stay valid while the input is read (or until ``rebase(_:)``).
    public init(path: String, bytes: UnsafeBufferPointer<UInt8>, maximumTokenBytes: Int = JSONInput.defaultMaximumTokenBytes) {
        self.path = path
        self.maximumTokenBytes = maximumTokenBytes
        base = UnsafePointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
        end = bytes.count
        atEndOfInput = true
    }

    /// Points an in-memory input at `bytes`, the same document at a new address (each access of a
    /// Swift array's storage is valid only inside its `withUnsafeBufferPointer`); positions stay.
    public func rebase(_ bytes: UnsafeBufferPointer<UInt8>) {
        base = UnsafePointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
    }

    /// Opens `path`: a regular file of at most `limit` bytes.
    public init(path: String, limit: Int, maximumTokenBytes: Int = JSONInput.defaultMaximumTokenBytes) throws(JSONInputError) {
        self.path = path
        self.maximumTokenBytes = maximumTokenBytes
        atEndOfInput = false
        base = UnsafePointer(bitPattern: 1)!
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Self.systemError() }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = Self.systemError()
            close(descriptor)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file (a device, FIFO or socket)"
            throw .notRegularFile(kind: kind)
        }
        guard info.st_size <= limit else {
            close(descriptor)
            throw .tooLarge(bytes: Int(info.st_size), limit: limit)
        }
        // Regular files never block; blocking mode back for plain reads.
        _ = fcntl(descriptor, F_SETFL, 0)
        fd = descriptor
        capacity = 2 * maximumTokenBytes + Self.chunkBytes
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
    public var offset: Int { dropped + pos }
    /// The offset of `base[p]` in the whole input.
    public func offset(at p: Int) -> Int { dropped + p }
    /// The 1-based column of `pos`, in bytes.
    public var column: Int { offset - lineStart + 1 }

    /// `base`, `pos` and `end` in one call: for a reader in another module that scans the buffer
    /// itself, which would pay a runtime exclusivity check for each property it read (see ``advance(to:newlines:lastLineStart:)``).
    public var window: (base: UnsafePointer<UInt8>, pos: Int, end: Int) { (base, pos, end) }

    /// Moves `pos` to `p` past bytes a reader checked itself (the result reader's plain-phase
    /// scanner): `newlines` line feeds, the last of them just before `base[lastLineStart]`. Here,
    /// in the module that declares the cursor unchecked: a caller in another module that changed
    /// `pos` and `line` itself would pay a runtime exclusivity check for each.
    public func advance(to p: Int, newlines: Int, lastLineStart: Int) {
        if newlines > 0 {
            line += newlines
            lineStart = offset(at: lastLineStart)
        }
        pos = p
    }

    /// Reads more bytes, keeping `base[pos..<end]` (moved to the front). `false` at the end of input.
    public func refill() throws(JSONInputError) -> Bool {
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
                throw Self.systemError()
            }
            if n == 0 {
                atEndOfInput = true
                return false
            }
            end += n
            // The file grew while being read: stop at the limit rather than read without end.
            if dropped + end > limit {
                throw .grewPastLimit(limit: limit)
            }
            return true
        }
    }

    private static func systemError() -> JSONInputError {
        .cannotRead(reason: String(cString: strerror(errno)))
    }
}

/// Why a ``JSONInput`` could not read its file (the caller names the file, in its own error).
public enum JSONInputError: Error, Equatable, Sendable {
    /// The system refused to open or read it; `reason` is `strerror`'s.
    case cannotRead(reason: String)
    /// Not a regular file: `kind` says what it is (`a directory`, …).
    case notRegularFile(kind: String)
    /// Larger than `limit` bytes when opened.
    case tooLarge(bytes: Int, limit: Int)
    /// It grew past `limit` bytes while being read.
    case grewPastLimit(limit: Int)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

extension CoreError {
    /// The system's refusal to `action` the file at `path`, with `errno`'s message.
    static func errno(_ path: String, _ action: String) -> CoreError {
        .system(path: path, action: action, reason: String(cString: strerror(Glibc.errno)))
    }
}

/// Whole-file reads and atomic writes, with errors that name the file.
public enum FileIO {
    /// Reads the whole file at `path`, a regular file of at most `kind`'s limit (``InputLimit/bytes``);
    /// messages name the kind (`… larger than the limit of 16 MiB for a theme`).
    ///
    /// - Throws: ``CoreError`` naming the path, as ``read(_:limit:)-(_,Int)`` does.
    public static func read(_ path: String, limit kind: InputLimit) throws(CoreError) -> [UInt8] {
        try read(path, limit: kind.bytes, kind: "a \(kind.name)")
    }

    /// Reads the whole file at `path`, which must be a regular file of at most `limit` bytes.
    ///
    /// The file is opened once, without blocking (opening a FIFO with no writer would otherwise block
    /// before anything could refuse it), and its type and size are checked with `fstat` on the opened
    /// descriptor (not the path, which could change in between). At most `limit` + 1 bytes are read
    /// even if the file grows meanwhile: a FIFO, a device such as `/dev/zero` (or a symlink to one) or
    /// an oversized file is refused with a message, never read until memory runs out or waited on.
    ///
    /// - Throws: ``CoreError`` naming the path: missing or unreadable (``CoreError/system(path:action:reason:)``),
    ///   a directory, FIFO, device or socket (``CoreError/notRegularFile(path:type:)``), or over the
    ///   limit (``CoreError/tooLarge(path:size:limit:kind:)``).
    public static func read(_ path: String, limit: Int = InputLimit.general.bytes) throws(CoreError) -> [UInt8] {
        try read(path, limit: limit, kind: "this kind of file")
    }

    private static func read(_ path: String, limit maxBytes: Int, kind: String) throws(CoreError) -> [UInt8] {
        let (fd, size) = try openRegularFile(path)
        defer { close(fd) }
        let limit = min(max(0, maxBytes), Int.max - 1)
        guard size <= limit else { throw .tooLarge(path: path, size: size, limit: limit, kind: kind) }
        let grew = CoreError.tooLarge(path: path, size: nil, limit: limit, kind: kind)
        // One byte more than the limit tells a file that grew past it (or whose size fstat does not tell).
        var bytes = [UInt8](repeating: 0, count: min(limit, size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw grew }
                bytes.append(contentsOf: repeatElement(0, count: min(limit + 1 - count, max(count, 1 << 16))))
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .errno(path, "read")
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw grew }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Opens `path` for reading, which must be a regular file: without blocking (opening a FIFO with no
    /// writer would block), its type checked with `fstat` on the opened descriptor (not the path, which
    /// could change in between), then the descriptor put back in blocking mode. The caller closes it.
    ///
    /// - Throws: ``CoreError`` naming the path: missing or unreadable, or a directory, FIFO, device or socket.
    public static func openRegularFile(_ path: String) throws(CoreError) -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw .errno(path, "read") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = CoreError.errno(path, "read")
            close(fd)
            throw error
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(fd)
            throw .notRegularFile(path: path, type: fileTypeName(type))
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, Int(info.st_size))
    }

    /// `a directory`, `a FIFO`… for a `st_mode & S_IFMT` value.
    public static func fileTypeName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// Reads the whole file at `path` as UTF-8 text (invalid sequences are replaced).
    public static func readText(_ path: String, limit: Int = InputLimit.general.bytes) throws(CoreError) -> String {
        String(decoding: try read(path, limit: limit), as: UTF8.self)
    }

    /// Writes `bytes` to `path` atomically: to a temporary file in the same directory, flushed,
    /// then renamed over `path`. A reader sees the old file or the new one, never half of one, and a
    /// writer killed at any moment (even by SIGKILL) leaves no temporary file: it is created unnamed
    /// (`O_TMPFILE`) and named only for the instant before the rename.
    ///
    /// Only a regular file (or a new one) is replaced that way. A `path` that is, or links to, a
    /// device, FIFO or socket (`/dev/stdout`, `/dev/null`, a named pipe) is written through, never
    /// replaced; a FIFO without a reader is an error rather than a wait. A symbolic link to a regular
    /// file keeps the link: its target is replaced atomically.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CoreError) {
        guard let target = try replaceableTarget(of: path) else {
            try writeThrough(bytes, to: path)
            return
        }
        let directory = parentDirectory(of: target)
        if !directory.isEmpty, !isDirectory(directory) {
            try createDirectories(directory)
        }
        var file = try ReplacementFile(beside: target, in: directory, for: path)
        try file.fill(with: bytes)
        try file.place(over: target)
        removeLeftovers(of: file.base, in: directory.isEmpty ? "." : directory)
    }

    /// The regular file a write to `path` replaces: `path`, or the file its symbolic links lead to
    /// (created, as a shell's `>` would, when missing); `nil` for what must be written through (a
    /// device, FIFO or socket, anything under /dev or /proc, where nothing can be renamed into place).
    ///
    /// - Throws: ``CoreError/directoryNotFile(path:)`` for a directory; ``CoreError/errno(_:_:)`` past 40 links.
    static func replaceableTarget(of path: String) throws(CoreError) -> String? {
        var info = stat()
        // A link is kept even when its target is missing: the target is created (as a shell's `>` would).
        guard stat(path, &info) == 0 else { return try linkTarget(of: path) }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw .directoryNotFile(path: path) }
        // Under /dev or /proc nothing can be renamed into place: write through (/dev/stdout when
        // stdout is a regular file, say).
        if type != S_IFREG || path.hasPrefix("/dev/") || path.hasPrefix("/proc/") { return nil }
        var link = stat()
        if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return path
    }

    /// The file `path` names once its symbolic links are followed, link by link (a relative link from
    /// the link's own directory), whether or not that file exists; `path` itself when it is no link.
    ///
    /// - Throws: ``CoreError/errno(_:_:)`` (`ELOOP`) past 40 links, as the kernel counts.
    static func linkTarget(of path: String) throws(CoreError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let link = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = resolve(link, relativeTo: parentDirectory(of: current))
        }
        Glibc.errno = ELOOP
        throw .errno(path, "write")
    }

    /// Removes `.<base>.<pid>.<n>.tmp` files left in `directory` by writers of `base` that were
    /// killed between naming their temporary file and renaming it, and are no longer running.
    static func removeLeftovers(of base: String, in directory: String) {
        let prefix = "." + base + "."
        for name in entries(of: directory) where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let parts = name.dropFirst(prefix.count).dropLast(4).split(separator: ".")
            guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil, pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// The names in the directory `path`, without `.` and `..`; empty when it cannot be read.
    public static func entries(of path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            // Only up to the name's NUL: the record may end before d_name's 256 bytes do.
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Where temporary files go: `$TMPDIR` when it is an absolute path (trailing slashes dropped), else `/tmp`.
    public static var temporaryDirectory: String {
        temporaryDirectory(tmpdir: getenv("TMPDIR").map { String(cString: $0) })
    }

    /// ``temporaryDirectory`` for a `TMPDIR` of `tmpdir` (`nil`: unset).
    static func temporaryDirectory(tmpdir: String?) -> String {
        guard let value = tmpdir, value.hasPrefix("/") else { return "/tmp" }
        var directory = Substring(value)
        while directory.count > 1 && directory.hasSuffix("/") { directory = directory.dropLast() }
        return String(directory)
    }

    /// A new directory only this user can read, `<parent>/<prefix>XXXXXX` (`mkdtemp`), removed with
    /// all it holds by ``removeTemporaryDirectory(_:)``, or when launchprof ends first: by `exit()`
    /// or by SIGINT, SIGTERM or SIGHUP (``ExitCleanup``).
    public static func makeTemporaryDirectory(in parent: String, prefix: String) throws(CoreError) -> String {
        var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
        let made: String? = ExitCleanup.guarded { register in
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
            let path = String(cString: made)
            temporaryDirectories.withLock { $0[path] = register { removeTree(path) } }
            return path
        }
        guard let made else { throw .errno(parent, "create a temporary directory") }
        return made
    }

    /// Removes a directory made by ``makeTemporaryDirectory(in:prefix:)`` and all it holds.
    public static func removeTemporaryDirectory(_ path: String) {
        removeTree(path)
        if let registration = temporaryDirectories.withLock({ $0.removeValue(forKey: path) }) {
            ExitCleanup.unregister(registration)
        }
    }

    /// The cleanup registration of a temporary directory not yet removed.
    static func temporaryRegistration(of path: String) -> ExitCleanup.Registration? {
        temporaryDirectories.withLock { $0[path] }
    }

    /// The temporary directories made and not yet removed, with their cleanup registrations.
    private static let temporaryDirectories = Mutex<[String: ExitCleanup.Registration]>([:])

    /// Removes `path` and everything below it. Symbolic links are removed, never followed.
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in entries(of: path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Writes `bytes` into the existing non-regular file at `path` (a device, FIFO or socket):
    /// opened write-only without creating or replacing it, as a shell's `>` would.
    static func writeThrough(_ bytes: [UInt8], to path: String) throws(CoreError) {
        // Non-blocking open: a FIFO nobody reads fails (ENXIO) instead of waiting forever.
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENXIO { throw .fifoWithoutReader(path: path) }
            throw .errno(path, "write")
        }
        defer { close(fd) }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        let failure = WriteAll.write(bytes, to: fd)
        guard failure == 0 else {
            Glibc.errno = failure
            throw .errno(path, "write")
        }
    }

    /// Writes `text` as UTF-8 to `path` atomically.
    public static func writeAtomically(_ text: String, to path: String) throws(CoreError) {
        try writeAtomically(Array(text.utf8), to: path)
    }

    /// Appends `text` to the file at `path`, creating it if needed (for logs such as GitHub's step
    /// summary, which other steps append to as well). Opened without blocking: a FIFO nobody reads
    /// is an error (`ENXIO`), not a hang.
    public static func append(_ text: String, to path: String) throws(CoreError) {
        let fd = ExitCleanup.creating { open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o644) }
        guard fd >= 0 else { throw .errno(path, "write") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let failure = WriteAll.write(bytes, to: fd)
        guard failure == 0 else {
            Glibc.errno = failure
            throw .errno(path, "write")
        }
    }

    /// `true` when `path` exists (following links).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// `true` when `path` is a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` and any missing parents.
    public static func createDirectories(_ path: String) throws(CoreError) {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += current.isEmpty || current.hasSuffix("/") ? String(component) : "/\(component)"
            if !isDirectory(current), ExitCleanup.creating({ mkdir(current, 0o755) }) != 0, errno != EEXIST {
                throw .errno(current, "create directory")
            }
        }
    }

    /// The directory part of `path` (`""` for a bare file name).
    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` resolved against `directory` unless it is absolute.
    public static func resolve(_ path: String, relativeTo directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty { return path }
        return directory.hasSuffix("/") ? directory + path : "\(directory)/\(path)"
    }
}

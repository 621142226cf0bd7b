#if canImport(Glibc)
import Glibc
#endif

/// Evicts files from the kernel's page cache, so the next read comes from the device: a cold launch.
public enum PageCache {
    /// Asks the kernel to drop the cached pages of every file (`posix_fadvise(POSIX_FADV_DONTNEED)`).
    /// Dirty pages are flushed first. Returns how many files were evicted. Only regular files are:
    /// a FIFO, device or socket in their place is opened without blocking and skipped (opening a
    /// FIFO nobody writes to would otherwise wait forever).
    @discardableResult
    public static func evict(_ paths: [String]) -> Int {
        var evicted = 0
        for path in paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            guard fd >= 0 else { continue }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(fd)
                continue
            }
            fdatasync(fd)
            if posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 { evicted += 1 }
            close(fd)
        }
        return evicted
    }

    /// Bytes of the regular file at `path` now in the page cache (`mincore` on a read-only mapping,
    /// which brings nothing in), or `nil` when it cannot be mapped (missing, empty, not a regular file).
    public static func residentBytes(of path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let map = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else { return nil }
        defer { munmap(map, size) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var vector = [UInt8](repeating: 0, count: (size + page - 1) / page)
        guard mincore(map, size, &vector) == 0 else { return nil }
        let pages = vector.reduce(0) { $0 + Int($1 & 1) }
        return min(size, pages * page)
    }

    /// The files of `paths` with bytes in the page cache, largest first (a cold run's reads, taken
    /// right after it: its files were evicted before it).
    public static func reads(of paths: [String]) -> [FileRead] {
        paths.compactMap { path in residentBytes(of: path).flatMap { $0 > 0 ? FileRead(path: path, bytes: $0) : nil } }
            .sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.path < $1.path }
    }

    /// How deep ``files(under:)`` descends below its directory.
    public static let maximumDepth = 64
    /// The most entries (files and directories) ``files(under:)`` looks at: an assets folder holds
    /// tens; a manifest naming `/` would otherwise walk the whole file system before every cold run.
    public static let maximumEntries = 100_000

    /// Every file under `directory`, recursively, at most ``maximumDepth`` levels down and
    /// ``maximumEntries`` entries looked at (the walk stops there). Symbolic
    /// links are listed, never followed into: a link to a parent would otherwise make the walk
    /// endless (two such links double it at every level).
    public static func files(under directory: String) -> [String] {
        var files: [String] = []
        var entries = 0
        collect(under: directory, depth: 0, into: &files, entries: &entries)
        return files.sorted()
    }

    private static func collect(under directory: String, depth: Int, into files: inout [String], entries: inout Int) {
        for name in FileIO.entries(of: directory) {
            guard entries < maximumEntries else { return }
            entries += 1
            let path = "\(directory)/\(name)"
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                if depth < maximumDepth { collect(under: path, depth: depth + 1, into: &files, entries: &entries) }
            } else {
                files.append(path)
            }
        }
    }
}

/// A file a cold launch read from storage, and how many of its bytes (``PageCache/reads(of:)``).
public struct FileRead: Equatable, Sendable {
    public var path: String
    public var bytes: Int
}

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

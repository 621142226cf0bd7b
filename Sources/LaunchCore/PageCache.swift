#if canImport(Glibc)
import Glibc
#endif

/// Evicts files from the kernel's page cache, so the next read comes from the device: a cold launch.
public enum PageCache {
    /// Asks the kernel to drop the cached pages of every file (`posix_fadvise(POSIX_FADV_DONTNEED)`).
    /// Dirty pages are flushed first. Returns how many files were evicted.
    @discardableResult
    public static func evict(_ paths: [String]) -> Int {
        var evicted = 0
        for path in paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            fdatasync(fd)
            if posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 { evicted += 1 }
            close(fd)
        }
        return evicted
    }

    /// Every regular file under `directory`, recursively.
    public static func files(under directory: String) -> [String] {
        var files: [String] = []
        for name in FileIO.entries(of: directory) {
            let path = "\(directory)/\(name)"
            if FileIO.isDirectory(path) { files += Self.files(under: path) } else { files.append(path) }
        }
        return files.sorted()
    }
}

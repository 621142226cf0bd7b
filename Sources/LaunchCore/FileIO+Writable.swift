#if canImport(Glibc)
import Glibc
#endif

extension FileIO {
    /// Checks, before any work, that ``writeAtomically(_:to:)-(_,String)`` can write `path`: it is not a
    /// directory; an existing device, FIFO or socket is writable; otherwise the nearest existing
    /// directory above it (the missing ones are created by the write) is a directory this process can
    /// write in. Nothing is created.
    ///
    /// - Throws: ``CoreError/directoryNotFile(path:)``, or ``CoreError/system(path:action:reason:)``
    ///   naming the path and the system's reason (`Permission denied`, `Not a directory`, `Read-only file system`).
    public static func checkWritable(_ path: String) throws(CoreError) {
        if path.isEmpty { throw .system(path: path, action: "write", reason: "empty path") }
        var info = stat()
        if stat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR { throw .directoryNotFile(path: path) }
            if type != S_IFREG {
                guard access(path, W_OK) == 0 else { throw .errno(path, "write") }
                return
            }
        }
        // A link to a regular file: its target's directory gets the new file.
        var target = path
        if let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        var directory = parentDirectory(of: target)
        while !directory.isEmpty, directory != "/", !exists(directory) {
            if lstat(directory, &info) == 0 { throw .system(path: path, action: "write", reason: "\(directory) is a dangling link") }
            directory = parentDirectory(of: directory)
        }
        let existing = directory.isEmpty ? "." : directory
        guard isDirectory(existing) else {
            throw .system(path: path, action: "write", reason: "\(existing) is not a directory")
        }
        guard access(existing, W_OK) == 0 else {
            throw .system(path: path, action: "write", reason: "\(existing): \(String(cString: strerror(errno)))")
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The lock on the app's saved state (`<snapshot>.lock`, `flock`): held exclusively by the
/// background step while it saves, and sends its report on close; taken shared by a launch before
/// it reads the saved snapshot. A relaunch while the previous instance is still closing waits here.
final class StateLock {
    private let fd: Int32

    /// Waits for the shared lock beside `snapshot`; `nil` when there can be none (the directory is
    /// missing or read-only and the lock file absent: no instance ever saved there).
    static func shared(snapshot: String) throws(PipelineError) -> StateLock? {
        let path = snapshot + ".lock"
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            if errno == ENOENT || errno == EACCES || errno == EROFS { return nil }
            throw .stage(.stateLock(path: path, step: .open, errno: errno))
        }
        return try StateLock(fd: fd, path: path, operation: LOCK_SH)
    }

    /// Waits for the exclusive lock beside `snapshot`, creating its directory when missing.
    static func exclusive(snapshot: String) throws(PipelineError) -> StateLock {
        let path = snapshot + ".lock"
        let directory = FileIO.parentDirectory(of: path)
        if !directory.isEmpty {
            do { try FileIO.createDirectories(directory) } catch { throw .file(error) }
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .stage(.stateLock(path: path, step: .open, errno: errno)) }
        return try StateLock(fd: fd, path: path, operation: LOCK_EX)
    }

    private init(fd: Int32, path: String, operation: Int32) throws(PipelineError) {
        while flock(fd, operation) != 0 {
            guard errno == EINTR else {
                let error = errno
                close(fd)
                throw .stage(.stateLock(path: path, step: .take, errno: error))
            }
        }
        self.fd = fd
    }

    deinit { close(fd) }  // Closing the descriptor releases the lock.
}

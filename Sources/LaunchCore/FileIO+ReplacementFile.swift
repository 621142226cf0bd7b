#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// The new content of a file being replaced (``writeAtomically(_:to:)-(_,String)``): an unnamed file
    /// in the target's directory (Linux's O_TMPFILE), so that if the process dies at any moment, even
    /// by SIGKILL, nothing is left to clean up. It gets a name only for the instant between link and
    /// rename. File systems without O_TMPFILE get a named temporary file.
    struct ReplacementFile {
        /// The path the caller asked to write, which errors name.
        let path: String
        /// The target's last component, which temporary names start with.
        let base: String
        /// The temporary name: `.<base>.<pid>.<random>.tmp` beside the target.
        let temp: String
        let fd: Int32
        /// Whether ``temp`` names the file (always, without O_TMPFILE).
        var named: Bool

        init(beside target: String, in directory: String, for path: String) throws(CoreError) {
            let oTmpFile: Int32 = 0o20000000 | O_DIRECTORY  // __O_TMPFILE | O_DIRECTORY
            let base = target.split(separator: "/").last.map(String.init) ?? "output"
            let temp =
                (directory.isEmpty ? "" : directory.hasSuffix("/") ? directory : directory + "/")
                + ".\(base).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            let unnamed = open(directory.isEmpty ? "." : directory, O_WRONLY | O_CLOEXEC | oTmpFile, 0o644)
            let fd = unnamed >= 0 ? unnamed : ExitCleanup.creating { open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
            guard fd >= 0 else { throw .errno(path, "write") }
            self.path = path
            self.base = base
            self.temp = temp
            self.fd = fd
            named = unnamed < 0
        }

        /// Writes `bytes` and flushes them to storage; on failure the file is closed and removed.
        func fill(with bytes: [UInt8]) throws(CoreError) {
            guard WriteAll.write(bytes, to: fd) == 0, fsync(fd) == 0 else {
                let error = CoreError.errno(path, "write")
                close(fd)
                if named { unlink(temp) }
                throw error
            }
        }

        /// Names the file (if unnamed) and renames it over `target`, then closes it.
        ///
        /// Link and rename back to back, as one step a cleanup under way cannot slip between: the only
        /// instant a kill can leave a name behind, and the next write to this directory removes such a
        /// leftover (``FileIO/removeLeftovers(of:in:)``).
        mutating func place(over target: String) throws(CoreError) {
            let placed: Bool = ExitCleanup.creating {
                if !named {
                    guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, temp, AT_SYMLINK_FOLLOW) == 0 else { return false }
                    named = true
                }
                return rename(temp, target) == 0
            }
            guard placed else {
                let error = CoreError.errno(path, "write")
                close(fd)
                unlink(temp)
                throw error
            }
            guard close(fd) == 0 else { throw .errno(path, "write") }
        }
    }
}

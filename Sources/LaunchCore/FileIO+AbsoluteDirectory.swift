#if canImport(Glibc)
import Glibc
#endif

extension FileIO {
    /// The absolute path of the directory holding `path` (its links resolved), for what is rewritten
    /// elsewhere and must still name files beside `path`.
    ///
    /// - Throws: ``CoreError/system(path:action:reason:)`` naming `path` when the directory cannot be resolved.
    public static func absoluteDirectory(of path: String) throws(CoreError) -> String {
        let parent = parentDirectory(of: path)
        guard let resolved = realpath(parent.isEmpty ? "." : parent, nil) else {
            throw .errno(path, "resolve its directory")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The current directory's absolute path, or `nil` when it cannot be read (removed, or too long).
    public static func currentDirectory() -> String? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        return String(cString: cwd)
    }
}

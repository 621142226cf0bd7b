#if canImport(Glibc)
import Glibc
#endif

/// Finds programs on `PATH`, as a shell would, and the temporary directory.
public enum ExecutableSearch {
    /// The absolute path of `name` found on `PATH`, or `nil`.
    public static func find(_ name: String) -> String? {
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// `true` when `path` is a regular file (after links) that this process may execute.
    public static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}

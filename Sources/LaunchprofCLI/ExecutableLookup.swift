import LaunchRunner
#if canImport(Glibc)
import Glibc
#endif

/// An executable found as a shell finds it: a path with a `/` as given, a bare name on `PATH`; a clear
/// error (``ProgramProblem``) when it cannot be run. For `exec`'s command and `bisect`'s `git`.
enum ExecutableLookup {
    /// The executable `name` stands for; a clear error when it cannot be run.
    static func resolve(_ name: String) throws -> String {
        if name.contains("/") {
            try check(name, as: name)
            return name
        }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        var blocked: String?
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if ExecutableSearch.isExecutableFile(candidate) { return candidate }
            if blocked == nil, access(candidate, F_OK) == 0 { blocked = candidate }
        }
        if let blocked { try check(blocked, as: name) }
        throw InputError.program(.notOnPath(name: name))
    }

    /// Throws unless `path` is a regular file this process may execute.
    private static func check(_ path: String, as name: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw InputError.program(.cannotExamine(name: name, reason: String(cString: strerror(errno))))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw InputError.program(.directory(name: name))
        default: throw InputError.program(.notRegularFile(name: name))
        }
        guard access(path, X_OK) == 0 else {
            throw InputError.program(.notExecutable(name: name, reason: String(cString: strerror(errno))))
        }
    }
}

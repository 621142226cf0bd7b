import LaunchCore
import LaunchRunner
#if canImport(Glibc)
import Glibc
#endif

/// The command `launchprof exec` launches, resolved and checked before anything runs: a path with a
/// `/` as given, a bare name on `PATH` as a shell finds it, or (`--shell`) a shell command line.
struct ProgramCommand {
    /// argv: the resolved executable first.
    let arguments: [String]
    /// `true` for a `--shell` command line.
    let shell: Bool
    /// The name a failure message gives the program: its first word, as typed.
    let displayName: String
    /// The words as typed (the executable not yet resolved on `PATH`).
    let typed: [String]

    /// Resolves `words` (everything after `--`); throws an ``InputError`` naming what is wrong.
    init(_ words: [String], shell: Bool, option: String = "the command") throws {
        guard let first = words.first, !first.isEmpty else {
            throw InputError("give \(option) to profile after --: launchprof exec [options] -- CMD [ARGS…]")
        }
        if let bad = words.first(where: { $0.utf8.contains(0) }) {
            throw InputError.option(
                option, value: nil, problem: "an argument contains a NUL character ('\(PlainText.oneLine(bad))'), which no program can receive")
        }
        self.shell = shell
        typed = words
        if shell {
            guard words.count == 1 else {
                throw InputError(
                    "--shell takes the whole command line as one argument: launchprof exec --shell -- 'CMD ARGS | …' (got \(words.count) arguments)")
            }
            arguments = ["/bin/sh", "-c", first]
            displayName = "the shell command"
            return
        }
        arguments = [try Self.resolve(first)] + words.dropFirst()
        displayName = first
    }

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
        throw InputError("'\(PlainText.oneLine(name))': command not found on PATH")
    }

    /// Throws unless `path` is a regular file this process may execute.
    private static func check(_ path: String, as name: String) throws {
        var info = stat()
        let shown = "'\(PlainText.oneLine(name))'"
        guard stat(path, &info) == 0 else {
            throw InputError.file(path: shown, problem: String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw InputError("\(shown) is a directory, not a program")
        default: throw InputError("\(shown) is not a regular file, so it cannot be a program")
        }
        guard access(path, X_OK) == 0 else {
            throw InputError("\(shown) is not executable (\(String(cString: strerror(errno))); chmod +x it, or run it through its interpreter)")
        }
    }

    /// The command line as a user could paste it.
    var commandLine: String { shell ? arguments[2] : CommandInfo(arguments: typed, shell: false, end: "").commandLine }
}

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

    /// Resolves `words` (everything after `--`); throws an ``InputError`` naming what is wrong (``ProgramProblem``).
    init(_ words: [String], shell: Bool, option: String = "the command") throws {
        guard let first = words.first, !first.isEmpty else {
            throw InputError.program(.noCommand(option: option))
        }
        if let bad = words.first(where: { $0.utf8.contains(0) }) {
            throw InputError.program(.nulCharacter(option: option, argument: bad))
        }
        self.shell = shell
        typed = words
        if shell {
            guard words.count == 1 else {
                throw InputError.program(.shellWords(words.count))
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

    /// The command line as a user could paste it.
    var commandLine: String { shell ? arguments[2] : CommandInfo(arguments: typed, shell: false, end: "").commandLine }
}

import LaunchCore

/// The command `launchprof exec` launches, resolved and checked before anything runs: its executable
/// found as a shell finds it (``ExecutableLookup``), or (`--shell`) a shell command line.
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
        arguments = [try ExecutableLookup.resolve(first)] + words.dropFirst()
        displayName = first
    }

    /// The command line as a user could paste it.
    var commandLine: String { shell ? arguments[2] : CommandInfo(arguments: typed, shell: false, end: "").commandLine }
}

import LaunchCore

/// What is wrong with a program launchprof would launch, refused before anything runs: the command
/// after `--` (``ProgramCommand``), the built-in app (`--app`) and launchprof's own helpers. Each case
/// carries the facts (the option, the name as typed, the paths tried, the system's reason), worded by
/// ``description``.
enum ProgramProblem: Equatable, CustomStringConvertible {
    /// No command after `--`; `option` is what the command is called (`the command`, `--exec`).
    case noCommand(option: String)
    /// A word of the command (`argument`) holds a NUL character.
    case nulCharacter(option: String, argument: String)
    /// `--shell` with `words` arguments instead of one command line.
    case shellWords(Int)
    /// `name` (no `/`) is on no directory of `PATH`.
    case notOnPath(name: String)
    /// `name` (as typed) cannot be examined, for `reason` (`strerror`).
    case cannotExamine(name: String, reason: String)
    /// `name` is a directory.
    case directory(name: String)
    /// `name` is neither a regular file nor a directory.
    case notRegularFile(name: String)
    /// `name` is a regular file this process may not execute, for `reason` (`strerror`).
    case notExecutable(name: String, reason: String)
    /// `--app PATH` that is not an executable file.
    case appNotExecutable(path: String)
    /// A helper of launchprof's (`launchprof-app`, `launchprof-spawn`) found at none of the paths `tried`.
    case helperNotFound(name: String, tried: [String])
    /// launchprof's own executable (`/proc/self/exe`) cannot be found.
    case selfNotFound

    var description: String {
        switch self {
        case .noCommand(let option):
            return "give \(option) to profile after --: launchprof exec [options] -- CMD [ARGS…]"
        case .nulCharacter(let option, let argument):
            return "\(option): an argument contains a NUL character ('\(PlainText.oneLine(argument))'), which no program can receive"
        case .shellWords(let count):
            return "--shell takes the whole command line as one argument: launchprof exec --shell -- 'CMD ARGS | …' (got \(count) arguments)"
        case .notOnPath(let name):
            return "\(Self.quoted(name)): command not found on PATH"
        case .cannotExamine(let name, let reason):
            return "\(Self.quoted(name)): \(reason)"
        case .directory(let name):
            return "\(Self.quoted(name)) is a directory, not a program"
        case .notRegularFile(let name):
            return "\(Self.quoted(name)) is not a regular file, so it cannot be a program"
        case .notExecutable(let name, let reason):
            return "\(Self.quoted(name)) is not executable (\(reason); chmod +x it, or run it through its interpreter)"
        case .appNotExecutable(let path):
            return "--app \(path): not an executable file"
        case .helperNotFound(let name, let tried) where name == AppExecutable.name:
            return
                "cannot find the built-in app (looked for \(tried.joined(separator: " and "))): build it (swift build --product \(name), or make build), install launchprof (make install), or pass --app PATH"
        case .helperNotFound(let name, let tried):
            return
                "cannot find \(name) (looked for \(tried.joined(separator: " and "))): build it with launchprof (swift build --product launchprof, or make build) or install launchprof (make install)"
        case .selfNotFound:
            return "cannot find the launchprof executable (/proc/self/exe)"
        }
    }

    /// A program's name as the messages show it: `'name'`, on one line.
    private static func quoted(_ name: String) -> String { "'\(PlainText.oneLine(name))'" }
}

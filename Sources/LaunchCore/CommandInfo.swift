/// The program a result of `launchprof exec` launched, in place of a manifest.
public struct CommandInfo: Codable, Equatable, Sendable {
    /// The command and its arguments, as spawned (for `--shell`, `/bin/sh -c TEXT`).
    public var arguments: [String]
    /// `true` when the user gave a shell command line (`--shell`).
    public var shell: Bool
    /// What ended a launch: `exit`, or the ready condition (`output matches REGEX`, `port 8080 accepts`,
    /// `file PATH exists`).
    public var end: String
    /// The startup-trace reader the phases came from (`--trace`), if any.
    public var trace: String?
    /// How a device tier's cpu factor was applied from outside (`--tier`), if one was.
    public var throttle: String?

    public init(arguments: [String], shell: Bool, end: String, trace: String? = nil, throttle: String? = nil) {
        self.arguments = arguments
        self.shell = shell
        self.end = end
        self.trace = trace
        self.throttle = throttle
    }

    /// The command as one line a user could paste: arguments quoted for a POSIX shell where needed.
    public var commandLine: String {
        arguments.map(Self.shellQuoted).joined(separator: " ")
    }

    /// `word` as a POSIX shell reads it: bare when it holds only safe characters, else in single quotes.
    public static func shellQuoted(_ word: String) -> String {
        let safe =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A)
                    || (scalar.value >= 0x61 && scalar.value <= 0x7A) || "-_./=:,+@%".unicodeScalars.contains(scalar)
            }
        return safe ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

import ArgumentParser
import LaunchExport

extension OutputFormat {
    /// The parser of a command's `--format` option: the formats of `subject` only, any other value a
    /// usage error that lists them.
    static func argument(_ subject: Subject) -> @Sendable (String) throws -> OutputFormat {
        { text in
            do { return try OutputFormat.parse(text, for: subject) } catch { throw ValidationError("\(error)") }
        }
    }
}

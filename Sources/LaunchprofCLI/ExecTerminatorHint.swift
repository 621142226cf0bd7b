import ArgumentParser
import LaunchCore

/// `launchprof exec python3 -c pass`: without `--`, the command's own options read as launchprof's
/// ("Unknown option '-c'"). The hint is the same line with `--` where the command starts: before
/// the first word that is not one of exec's options or their values, found by parsing each candidate.
enum ExecTerminatorHint {
    /// `launchprof exec -- python3 -c pass` for `exec`'s `arguments` (without `exec`), or `nil` when
    /// they have a `--` already or no split parses.
    static func suggestion(for arguments: [String]) -> String? {
        guard !arguments.contains("--") else { return nil }
        for split in arguments.indices where !arguments[split].hasPrefix("-") {
            let candidate = Array(arguments[..<split]) + ["--"] + Array(arguments[split...])
            if (try? ExecCommand.parse(candidate)) != nil {
                return (["launchprof", "exec"] + candidate).map(CommandInfo.shellQuoted).joined(separator: " ")
            }
        }
        return nil
    }
}

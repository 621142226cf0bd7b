import ArgumentParser
import LaunchCore
import LaunchRunner

/// `--tap SECONDS:KEY`: a key press delivered to the app at a time after the spawn.
enum TapOption {
    /// Reads `0.3:7` (the key may contain `:` after the first one).
    static func parse(_ argument: String) throws -> ScheduledTap {
        guard let colon = argument.firstIndex(of: ":") else {
            throw InputError.usage(.tapWithoutColon(argument: argument))
        }
        let seconds = try OptionRanges.tapSeconds.parse(String(argument[..<colon]))
        let key = String(argument[argument.index(after: colon)...])
        guard !key.isEmpty else { throw InputError.usage(.tapWithoutKey(argument: argument)) }
        return ScheduledTap(seconds: seconds, key: key)
    }

    /// The taps, each checked to be a key of the manifest's theme (its launch orientation) that the
    /// calculator knows: the built-in app at `app` answers (`--check-tap`), with its refusal as the error.
    static func check(_ taps: [ScheduledTap], manifest path: String, app: String) throws -> [ScheduledTap] {
        guard !taps.isEmpty else { return [] }
        let arguments = [app, "--manifest", path] + taps.flatMap { ["--check-tap", $0.key] }
        guard let answer = CommandOutput.status(arguments) else { throw InputError.usage(.tapCheckNotStarted(app: app)) }
        guard answer.status == 0 else {
            var refusal = String(decoding: answer.stderr, as: UTF8.self)
            while refusal.last?.isNewline == true { refusal.removeLast() }
            throw InputError.usage(.tapRefused(app: app, status: answer.status, refusal: refusal))
        }
        return taps
    }
}

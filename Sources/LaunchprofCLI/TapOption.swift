import ArgumentParser
import LaunchCore
import LaunchPipeline
import LaunchRunner

/// `--tap SECONDS:KEY`: a key press delivered to the app at a time after the spawn.
enum TapOption {
    /// Reads `0.3:7` (the key may contain `:` after the first one).
    static func parse(_ argument: String) throws -> ScheduledTap {
        guard let colon = argument.firstIndex(of: ":") else {
            throw InputError("--tap expects SECONDS:KEY (for example 0.3:7), not \(PlainText.quoted(argument))")
        }
        let seconds = try OptionRanges.tapSeconds.parse(String(argument[..<colon]))
        let key = String(argument[argument.index(after: colon)...])
        guard !key.isEmpty else { throw InputError("--tap expects SECONDS:KEY (for example 0.3:7): the key is missing in \(PlainText.quoted(argument))") }
        return ScheduledTap(seconds: seconds, key: key)
    }

    /// The taps, each checked to be a key of the manifest's theme (its launch orientation) that the
    /// calculator knows.
    static func check(_ taps: [ScheduledTap], against manifest: Manifest) throws -> [ScheduledTap] {
        guard !taps.isEmpty else { return [] }
        let theme: Theme
        do { theme = try ThemeParser.load(path: manifest.theme) } catch { throw InputError(error) }
        let keys = manifest.orientations.first.flatMap { theme.layouts[$0] }?.keys.compactMap { $0.label ?? $0.icon } ?? []
        for tap in taps where !keys.contains(tap.key) || Calculator.key(named: tap.key) == nil {
            throw InputError("--tap \(PlainText.quoted(tap.key)): \(manifest.theme) has no such key (keys: \(keys.joined(separator: " ")))")
        }
        return taps
    }
}

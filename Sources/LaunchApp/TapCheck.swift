import LaunchCore
import LaunchManifest
import LaunchPipeline

/// `launchprof-app --manifest M --check-tap KEY…`: whether each key is a key of the manifest's theme
/// (its launch orientation) that the calculator knows. `launchprof run --tap` asks the app before
/// any run, so the CLI needs neither the theme's reader nor the calculator.
enum TapCheck {
    /// The message refusing the first key that is not one, or the manifest's or theme's error;
    /// `nil` when every key is.
    static func refusal(manifestPath: String, keys taps: [String]) -> String? {
        let manifest: Manifest
        let theme: Theme
        do {
            manifest = try ManifestLoader.load(path: manifestPath)
            theme = try ThemeParser.load(path: manifest.theme)
        } catch { return "\(error)" }
        let keys = manifest.orientations.first.flatMap { theme.layouts[$0] }?.keys.compactMap { $0.label ?? $0.icon } ?? []
        for tap in taps where !keys.contains(tap) || Calculator.key(named: tap) == nil {
            return "--tap \(PlainText.quoted(tap)): \(manifest.theme) has no such key (keys: \(keys.joined(separator: " ")))"
        }
        return nil
    }
}

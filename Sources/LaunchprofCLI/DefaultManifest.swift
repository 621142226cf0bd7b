#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LaunchCore
import LaunchTiers

/// Finds the default manifest that ships in the repository (`Fixtures/default/manifest.json`) or with
/// an installed launchprof (`PREFIX/share/launchprof/Fixtures/default/manifest.json`).
enum DefaultManifest {
    static let relativePath = "Fixtures/default/manifest.json"

    /// The current directory's `Fixtures/default/manifest.json`, else the first one found walking up
    /// from the executable's directory (so `.build/release/launchprof run` works from anywhere), else
    /// the installed one.
    static func locate() -> String? {
        if FileIO.exists(relativePath) { return relativePath }
        var directory = FileIO.parentDirectory(of: SelfExecutable.path() ?? "")
        while !directory.isEmpty, directory != "/" {
            let candidate = "\(directory)/\(relativePath)"
            if FileIO.exists(candidate) { return candidate }
            directory = FileIO.parentDirectory(of: directory)
        }
        if let data = try? InstallLayout.dataDirectory(), FileIO.exists("\(data)/\(relativePath)") { return "\(data)/\(relativePath)" }
        return nil
    }

    /// Where the app saves its snapshot instead of the manifest's path, when that path is in an installed
    /// prefix's data directory (PREFIX/share/launchprof: not the place for state, and read-only for most
    /// users) or in a directory this user cannot write: `$XDG_CACHE_HOME/launchprof/NAME/`, else
    /// `$HOME/.cache/launchprof/NAME/`, created. `nil` when the manifest's own path will do or
    /// there is no cache directory (then `--snapshot FILE` chooses the place).
    static func writableSnapshot(for snapshot: String, manifestName: String) -> String? {
        let directory = FileIO.parentDirectory(of: snapshot)
        let installed = (try? InstallLayout.dataDirectory()).map { snapshot.hasPrefix($0 + "/") } ?? false
        guard installed || access(directory.isEmpty ? "." : directory, W_OK) != 0 else { return nil }
        let name = manifestName.isEmpty || manifestName.contains("/") || manifestName.hasPrefix(".") ? "default" : manifestName
        let file = snapshot.split(separator: "/").last.map(String.init) ?? "Loading.png"
        // launchprof's cache directory, the one the host calibration is kept in.
        guard let cache = CalibrationCache(environment: ProcessInfo.processInfo.environment)?.directory else { return nil }
        let target = "\(cache)/\(name)"
        guard (try? FileIO.createDirectories(target)) != nil, access(target, W_OK) == 0 else { return nil }
        return "\(target)/\(file)"
    }
}

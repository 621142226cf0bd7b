#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

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

    /// Where the app saves its snapshot when the manifest's snapshot path is in a directory this user
    /// cannot write (an installed copy in /usr/share): `$XDG_CACHE_HOME/launchprof/NAME/` (else
    /// `$HOME/.cache/launchprof/NAME/`), created; `nil` when the manifest's own path is writable or no
    /// cache directory can be made.
    static func writableSnapshot(for snapshot: String, manifestName: String) -> String? {
        let directory = FileIO.parentDirectory(of: snapshot)
        guard access(directory.isEmpty ? "." : directory, W_OK) != 0 else { return nil }
        let cache: String
        if let xdg = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") {
            cache = xdg
        } else if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
            cache = "\(home)/.cache"
        } else {
            return nil
        }
        let name = manifestName.isEmpty || manifestName.contains("/") ? "default" : manifestName
        let target = "\(cache)/launchprof/\(name)"
        guard (try? FileIO.createDirectories(target)) != nil else { return nil }
        return "\(target)/\(snapshot.split(separator: "/").last.map(String.init) ?? "Loading.png")"
    }
}

import LaunchCore

/// Finds the default manifest that ships in the repository (`Fixtures/default/manifest.json`).
enum DefaultManifest {
    static let relativePath = "Fixtures/default/manifest.json"

    /// The current directory's `Fixtures/default/manifest.json`, else the first one found walking up
    /// from the executable's directory (so `.build/release/launchprof run` works from anywhere).
    static func locate() -> String? {
        if FileIO.exists(relativePath) { return relativePath }
        var directory = FileIO.parentDirectory(of: SelfExecutable.path() ?? "")
        while !directory.isEmpty, directory != "/" {
            let candidate = "\(directory)/\(relativePath)"
            if FileIO.exists(candidate) { return candidate }
            directory = FileIO.parentDirectory(of: directory)
        }
        return nil
    }
}

import LaunchCore

/// The built-in app's own top-level phases around a manifest's stages: named here so that the app
/// that reports them and the CLI that checks budgets against them (`check --budget`) agree.
public enum AppPhase {
    /// The app reads and checks its manifest.
    public static let readingManifest = "reading manifest"
    /// The background step after the launch (the snapshot saved, caches released).
    public static let enteringBackground = "entering background"
    /// Back from the background (`--resume`).
    public static let returningToForeground = "returning to foreground"
}

extension Manifest {
    /// The top-level phases a launch of this manifest by the built-in app may have: the process
    /// start, the app's own steps around the stages, and the stages (lazy ones too, timed by `--touch`).
    public var topLevelPhases: [String] {
        [
            ProtocolParser.processStartPhase, AppPhase.readingManifest, AppInterface.showingSnapshotPhase,
            AppPhase.enteringBackground, AppPhase.returningToForeground
        ] + stages.map(\.name)
    }

    /// The file the app saves its state beside the snapshot at `snapshot` (removed with it by `--fresh-install`).
    public static func statePath(snapshot: String) -> String { snapshot + ".state" }
}

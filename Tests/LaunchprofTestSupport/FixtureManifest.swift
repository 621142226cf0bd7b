import Foundation
import LaunchCore

/// Manifests for tests: the default fixture's launch stages with absolute paths, so a copy works
/// from any directory.
public enum FixtureManifest {
    /// The default fixture's directory.
    public static var fixture: String { BuiltProducts.source("Fixtures/default") }

    /// Writes a manifest named `name` with the default fixture's five stages and the extra JSON
    /// `members` (`"\"snapshot\": \"/tmp/s.png\""`…) as `<directory>/manifest.json`; returns its path.
    @discardableResult
    public static func write(name: String, members: [String] = [], in directory: String) throws -> String {
        let extra = members.map { ", " + $0 }.joined()
        let json = """
            {"name": "\(name)", "theme": "\(fixture)/theme.xml", "assets": "\(fixture)/assets",
             "screen": {"width": 320, "height": 480, "scale": 1},
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}, {"name": "loading images", "run": "images"},
                        {"name": "drawing", "run": "draw"}]\(extra)}
            """
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/manifest.json"
        // FileIO's atomic write: Foundation's leaves a `TemporaryDirectory.*` behind in $TMPDIR on Linux.
        try FileIO.writeAtomically(json, to: path)
        return path
    }
}

import LaunchCore

/// Manifests for CLI tests, written to new temporary directories.
enum TestManifest {
    /// The default fixture without its snapshot and lazy stages, optionally with a slowdown
    /// injected into `drawing` (`test.slowdown`: the drawing repeats `fraction` more of its work).
    static func make(slowdown: Double? = nil) throws -> String {
        let fixture = CLI.packageRoot + "/Fixtures/default"
        let directory = CLI.temporaryPath("gate")
        let test = slowdown.map { #", "test": {"slowdown": {"stage": "drawing", "fraction": \#($0)}}"# } ?? ""
        let json = """
            {"name": "default", "theme": "\(fixture)/theme.xml", "assets": "\(fixture)/assets",
             "screen": {"width": 320, "height": 480, "scale": 1},
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}, {"name": "loading images", "run": "images"},
                        {"name": "drawing", "run": "draw"}]\(test)}
            """
        try FileIO.writeAtomically(json, to: directory + "/manifest.json")
        return directory + "/manifest.json"
    }
}

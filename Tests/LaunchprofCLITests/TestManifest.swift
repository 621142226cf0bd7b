import LaunchCore
import LaunchprofTestSupport

/// Manifests for CLI tests, written to new temporary directories.
enum TestManifest {
    /// The default fixture without its snapshot and lazy stages, optionally with a slowdown
    /// injected into `drawing` (`test.slowdown`: the drawing repeats `fraction` more of its work).
    static func make(slowdown: Double? = nil) throws -> String {
        let test = slowdown.map { #""test": {"slowdown": {"stage": "drawing", "fraction": \#($0)}}"# }
        return try write(name: "default", members: test.map { [$0] } ?? []).manifest
    }

    /// The default fixture's launch stages with `iterations` more steps of work in every call of
    /// `Canvas.fillRoundedRect` (`test.slowFunction`).
    static func make(fillRoundedRectWork iterations: Int) throws -> String {
        try write(name: "default", members: [#""test": {"slowFunction": {"function": "fillRoundedRect", "iterations": \#(iterations)}}"#]).manifest
    }

    /// The default fixture's launch stages with `strategies` (the members of the JSON object), its
    /// snapshot `Loading.png` (and the splash) in a new directory.
    static func with(strategies: String, name: String) throws -> (manifest: String, snapshot: String) {
        let directory = CLI.temporaryPath(name)
        let written = try write(
            name: name,
            members: [
                #""strategies": {\#(strategies)}"#, #""snapshot": "\#(directory)/Loading.png""#,
                #""splash": "splash.png""#
            ], directory: directory)
        return (written.manifest, directory + "/Loading.png")
    }

    /// Writes the default fixture's launch stages and `members` as `<directory>/manifest.json`.
    private static func write(name: String, members: [String], directory: String? = nil) throws -> (manifest: String, directory: String) {
        let directory = directory ?? CLI.temporaryPath(name == "default" ? "gate" : name)
        return (try FixtureManifest.write(name: name, members: members, in: directory), directory)
    }
}

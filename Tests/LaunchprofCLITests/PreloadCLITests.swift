import Testing
import LaunchCore

/// `strategies.preload` end to end: the report counts the animation's frames and shows the
/// preload on its worker thread under the stage it prepared; a bad value exits 2 naming the key.
@Suite(.serialized) struct PreloadCLITests {
    /// The default fixture's launch stages and its lazy conversions, with `preload` (JSON) as the strategy.
    func manifest(_ preload: String, name: String) throws -> String {
        let fixture = CLI.packageRoot + "/Fixtures/default"
        let path = CLI.temporaryPath(name) + "/manifest.json"
        let json = """
            {"name": "\(name)", "theme": "\(fixture)/theme.xml", "assets": "\(fixture)/assets",
             "screen": {"width": 320, "height": 480, "scale": 1},
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}, {"name": "loading images", "run": "images"},
                        {"name": "drawing", "run": "draw"},
                        {"name": "loading conversions", "run": "data", "file": "\(fixture)/conversions.xml", "lazy": true}],
             "strategies": {"preload": \(preload)}}
            """
        try FileIO.writeAtomically(json, to: path)
        return path
    }

    @Test func aRunPrintsTheAnimationAndThePreload() throws {
        let path = try manifest(#"{"stage": "loading conversions", "during": "launch animation"}"#, name: "preload")
        let outcome = try CLI.run(["run", "--manifest", path, "--runs", "1", "--warmup", "0", "--all-phases", "--touch", "loading conversions"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("24 animation frames drawn"))
        #expect(outcome.stdout.contains(#/ \d+ animation frames late/#))
        #expect(outcome.stdout.contains("1 first use preloaded"))
        #expect(outcome.stdout.contains(#/\nTime for launch animation: \d+(?:\.\d+)? (?:µs|ms|s)\n/#))
        #expect(outcome.stdout.contains(#/Time for loading conversions: deferred, \d+(?:\.\d+)? (?:µs|ms|s) on first use\n/#))
        #expect(
            outcome.stdout.contains(
                #/On worker threads:\n  Time for preloading loading conversions: \d+(?:\.\d+)? (?:µs|ms|s)\n    Time for parsing conversions.xml: /#))
    }

    @Test func aBadValueExitsTwoNamingTheFileAndKeyPath() throws {
        let path = try manifest(#"{"stage": "loading conversions", "during": "splash screen"}"#, name: "bad-preload")
        let outcome = try CLI.run(["run", "--manifest", path, "--runs", "1"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(#"\#(path): strategies.preload.during: expected "launch animation""#), "\(outcome.stderr)")
    }
}

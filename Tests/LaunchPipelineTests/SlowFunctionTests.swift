import LaunchCore
import LaunchImage
import Testing

@testable import LaunchPipeline
import LaunchManifest

/// `test.slowFunction`: work added to one drawing function's own code (docs/manifest.md).
struct SlowFunctionTests {
    let stages = #"[{"name": "Init", "run": "init"}, {"name": "themes", "run": "theme"}]"#

    func manifest(_ test: String) throws(ManifestError) -> Manifest {
        try ManifestLoader.parse(
            Array(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "test": \#(test)}"#.utf8), path: "dir/m.json")
    }

    func message(_ test: String) -> String {
        do {
            _ = try manifest(test)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func theKeyIsReadAndChecked() throws {
        let work = try manifest(#"{"slowFunction": {"function": "fillRoundedRect", "iterations": 2000}}"#).injectedFunctionWork
        #expect(work == InjectedFunctionWork(function: "fillRoundedRect", iterations: 2000))
        #expect(try manifest("{}").injectedFunctionWork == nil)
        #expect(
            message(#"{"slowFunction": {"function": "blur", "iterations": 1}}"#)
                == #"dir/m.json: test.slowFunction.function: expected one of fillRoundedRect, found "blur""#)
        #expect(
            message(#"{"slowFunction": {"function": "fillRoundedRect", "iterations": 2.5}}"#)
                == "dir/m.json: test.slowFunction.iterations: expected a whole number of iterations from 0 to 10000000, found 2.5")
        #expect(message(#"{"slowFunction": {"function": "fillRoundedRect"}}"#).hasPrefix("dir/m.json: test.slowFunction"))
    }

    @Test func onlyTheNamedFunctionDoesMoreWork() {
        var canvas = Canvas(width: 16, height: 16)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 8, height: 8), radius: 2, paint: .solid(RGBA(1, 2, 3)))
        #expect(canvas.injectedWorkResult == 0)
        var slowed = Canvas(width: 16, height: 16)
        slowed.injectedWork = InjectedFunctionWork(function: "fillRoundedRect", iterations: 3)
        slowed.fillRoundedRect(Rect(x: 0, y: 0, width: 8, height: 8), radius: 2, paint: .solid(RGBA(1, 2, 3)))
        // Three steps of the generator from 0, and the same pixels as without the work.
        var state: UInt64 = 0
        for _ in 0..<3 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        #expect(slowed.injectedWorkResult == state)
        #expect(slowed.image == canvas.image)
    }
}

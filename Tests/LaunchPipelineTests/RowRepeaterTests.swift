import Testing
@testable import LaunchPipeline
import LaunchCore
import LaunchImage
import LaunchManifest

@Suite struct RowRepeaterTests {
    @Test func fractionZeroRunsEveryRowOnce() {
        let repeater = RowRepeater(fraction: 0)
        #expect((0..<1000).allSatisfy { _ in repeater.runs() == 1 })
        #expect(repeater.repeated == 0)
        let none: RowRepeater? = nil
        #expect(Array(none.rows(3..<6)) == [3, 4, 5])
        #expect(Array(none.rows(3..<3)).isEmpty)
    }

    @Test func aLoopRunsItsRowsThenTheRepeatedOnes() {
        let half: RowRepeater? = RowRepeater(fraction: 0.5)
        #expect(Array(half.rows(0..<4)) == [0, 1, 2, 3, 1, 3])
        let twice: RowRepeater? = RowRepeater(fraction: 2)
        #expect(Array(twice.rows(0..<2)) == [0, 1, 0, 0, 1, 1])
        let zero: RowRepeater? = RowRepeater(fraction: 0)
        #expect(Array(zero.rows(5..<8)) == [5, 6, 7])
    }

    @Test func aFractionRepeatsThatShareOfRowsEvenlySpread() {
        let repeater = RowRepeater(fraction: 0.25)
        let runs = (0..<400).map { _ in repeater.runs() }
        #expect(repeater.repeated == 100)
        #expect(Set(runs) == [1, 2])
        // Every fourth row, never two in a row nor a gap of more than four.
        let repeatedRows = runs.indices.filter { runs[$0] == 2 }
        #expect(zip(repeatedRows, repeatedRows.dropFirst()).allSatisfy { $1 - $0 == 4 })
    }

    @Test func fractionsAboveOneRunRowsSeveralTimes() {
        let repeater = RowRepeater(fraction: 2.5)
        let total = (0..<100).map { _ in repeater.runs() }.reduce(0, +)
        #expect(total == 350)
        #expect(repeater.repeated == 250)
    }

    @Test func theCarryRunsOnAcrossLoops() {
        // Ten loops of three rows at 0.1: one row in ten overall, though no loop has ten rows.
        let repeater = RowRepeater(fraction: 0.1)
        for _ in 0..<10 { for _ in 0..<3 { _ = repeater.runs() } }
        #expect(repeater.repeated == 3)
    }

    /// The default fixture's launch stages (no snapshot), with `test` members when given.
    func launch(slowdown fraction: Double?) throws -> (canvas: Canvas, repeated: Int?) {
        let fixture = Paths.packageRoot + "/Fixtures/default"
        let test = fraction.map { #", "test": {"slowdown": {"stage": "drawing", "fraction": \#($0)}}"# } ?? ""
        let json = """
            {"name": "default", "theme": "\(fixture)/theme.xml", "assets": "\(fixture)/assets",
             "screen": {"width": 320, "height": 480, "scale": 1},
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}, {"name": "loading images", "run": "images"},
                        {"name": "drawing", "run": "draw"}]\(test)}
            """
        let path = Paths.temporaryDirectory() + "/manifest.json"
        try FileIO.writeAtomically(json, to: path)
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: path), recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        let run = RunRecord(clock: clock, recorders: [recorder], deferred: [])
        return (try #require(pipeline.canvas), run.counter("test slowdown rows repeated"))
    }

    @Test func theSlowdownRepeatsItsFractionOfTheDrawingsRowsAndNothingAtZero() throws {
        let plain = try launch(slowdown: nil)
        #expect(plain.repeated == nil)
        #expect(plain.canvas.rowRepeater == nil)

        // Fraction 0 draws the same frame, byte for byte.
        let zero = try launch(slowdown: 0)
        #expect(zero.repeated == 0)
        #expect(zero.canvas.image == plain.canvas.image)

        // Fraction 1 runs every row twice: the drawing's rows, counted; 0.1 repeats a tenth of them.
        let all = try #require(try launch(slowdown: 1).repeated)
        let tenth = try #require(try launch(slowdown: 0.1).repeated)
        #expect(all > 320 * 2, "every row of the window alone is drawn by two loops")
        #expect(abs(tenth - all / 10) <= 1, "a tenth of \(all) rows, not \(tenth)")
        // The canvas kept for later frames (a tap's redraw) is not slowed down.
        #expect(try launch(slowdown: 1).canvas.rowRepeater == nil)
    }
}

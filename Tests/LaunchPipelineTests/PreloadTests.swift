import Testing
@testable import LaunchPipeline
import LaunchCore
import LaunchImage
import LaunchManifest

/// `strategies.preload`: with it, a launch animation of 24 really drawn frames on the main thread
/// while a worker thread parses, lays out and draws the lazy stage's panel, so that its first use
/// does none of that; without it, no animation and the first use does the work. The panel is the
/// same pixels either way, the preload stays out of the launch total, bad values are refused.
@Suite(.serialized) struct PreloadTests {
    static let preload = #""preload": { "stage": "loading conversions", "during": "launch animation" }"#

    /// The default fixture with `strategies` members `extra` added (and no snapshot written).
    func manifest(_ extra: String?) throws -> Manifest {
        var text = try FileIO.readText(Paths.defaultManifest)
        if let extra { text = text.replacingOccurrences(of: #""strategies": {"#, with: #""strategies": { \#(extra),"#) }
        return try ManifestLoader.parse(Array(text.utf8), path: Paths.defaultManifest)
    }

    /// Launches with or without the preload, touches the conversions, and collects every thread's phases.
    func launch(preload: Bool, countsInstructions: Bool = false, touch: Bool = true) throws -> (Pipeline, RunRecord) {
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        recorder.countsInstructions = countsInstructions
        let pipeline = Pipeline(manifest: try manifest(preload ? Self.preload : nil), recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        if touch { try pipeline.touch("loading conversions") }
        let recorders = [recorder] + pipeline.finishPreload()
        return (pipeline, RunRecord(clock: clock, recorders: recorders, deferred: pipeline.manifest.lazyStages.map(\.name)))
    }

    /// The phases directly inside the top-level after-launch phase `name` on the main thread.
    func children(of name: String, in run: RunRecord) throws -> [PhaseRecord] {
        let index = try #require(run.phases.firstIndex { $0.name == name && $0.depth == 0 && $0.afterLaunch && $0.thread == 0 })
        return run.phases.filter { $0.parent == index }
    }

    @Test func withThePreloadTheAnimationPlaysAndTheFirstUseDoesNoWork() throws {
        let (pipeline, run) = try launch(preload: true)
        #expect(run.counter("animation frames drawn") == 24)
        #expect(run.counter("animation frames late") != nil)
        #expect(run.counter("animation pixels drawn")! > 0)
        #expect(run.phases.filter { $0.name == "animation frame" }.count == 24)
        let animation = try #require(run.phases.first { $0.name == "launch animation" })
        #expect(animation.depth == 0 && animation.thread == 0 && !animation.afterLaunch && animation.kind == .draw)
        let interactive = try #require(run.marks.first { $0.name == "interactive" })
        #expect(interactive.time >= animation.end)
        // The worker's phases, on their own thread, after-launch work.
        let worker = run.phases.filter { $0.thread != 0 }
        #expect(worker.map(\.name) == ["preloading loading conversions", "parsing conversions.xml", "laying out the panel", "drawing the panel"])
        #expect(worker.allSatisfy { $0.afterLaunch })
        #expect(worker.first?.start ?? 0 >= animation.start - 0.01)
        // The first use parses nothing and draws nothing: at most it waits.
        #expect(run.counter("first use preloaded") == 1)
        #expect(try children(of: "loading conversions", in: run).allSatisfy { $0.name == "waiting for the preload" })
        #expect(run.phases.filter { $0.name == "parsing conversions.xml" }.count == 1)
        #expect(pipeline.dataTables["loading conversions"]?.items.count == 14)
        #expect(pipeline.panel("loading conversions") != nil)
        // The total is the launch's: the animation's end, whenever the worker finished.
        #expect(run.total == animation.end)
    }

    @Test func withoutThePreloadNoAnimationAndTheFirstUseParsesLaysOutAndDraws() throws {
        let (pipeline, run) = try launch(preload: false)
        #expect(run.counter("animation frames drawn") == nil)
        #expect(run.counter("animation frames late") == nil)
        #expect(run.counter("first use preloaded") == nil)
        #expect(!run.phases.contains { $0.name == "launch animation" || $0.thread != 0 })
        #expect(try children(of: "loading conversions", in: run).map(\.name) == ["parsing conversions.xml", "laying out the panel", "drawing the panel"])
        #expect(pipeline.finishPreload().isEmpty)
        #expect(pipeline.dataTables["loading conversions"]?.items.count == 14)
    }

    @Test func thePanelIsReallyDrawnAndTheSamePixelsEitherWayAsIsTheFinalFrame() throws {
        let (on, onRun) = try launch(preload: true)
        let (off, offRun) = try launch(preload: false)
        let pixels = try #require(onRun.counter("panel pixels drawn"))
        #expect(pixels > 0)
        #expect(offRun.counter("panel pixels drawn") == pixels)
        #expect(onRun.counter("panel rows laid out") == 17)  // 14 items under 3 group headers
        let panel = try #require(on.panel("loading conversions"))
        #expect(panel.image == off.panel("loading conversions")?.image)
        #expect(panel.width == 320 && panel.height == 480)
        // Glyphs, not one flat fill: many distinct colours.
        var colours = Set<UInt32>()
        let p = panel.image.pixels
        for i in stride(from: 0, to: p.count, by: 4) { colours.insert(UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])) }
        #expect(colours.count > 20)
        // The animation's last frame is the keys at rest: the draw stage's frame.
        #expect(on.canvas?.image == off.canvas?.image)
    }

    @Test func countingInstructionsTheAnimationIsUnpacedAndThePreloadRunsAfterIt() throws {
        let (_, run) = try launch(preload: true, countsInstructions: true)
        #expect(run.counter("animation frames drawn") == 24)
        #expect(run.counter("animation frames late") == nil)
        let animation = try #require(run.phases.first { $0.name == "launch animation" })
        let worker = run.phases.filter { $0.thread != 0 }
        #expect(worker.count == 4)
        #expect(worker.allSatisfy { $0.start >= animation.end && $0.afterLaunch })
        #expect(try children(of: "loading conversions", in: run).isEmpty)
        #expect(run.counter("first use preloaded") == 1)
    }

    @Test func aPreloadThatIsNeverUsedIsStillJoinedAndReported() throws {
        let (pipeline, run) = try launch(preload: true, touch: false)
        #expect(run.phases.contains { $0.name == "drawing the panel" && $0.thread == 1 })
        #expect(run.counter("first use preloaded") == nil)
        #expect(pipeline.dataTables["loading conversions"]?.items.count == 14)
    }

    @Test func charactersTheLabelFontLacksAreSubstitutedNotFatal() throws {
        let (pipeline, _) = try launch(preload: false, touch: false)
        let font = try #require(PreparedPanel.font(in: pipeline.fonts))
        let table = DataTable(
            kind: "conversions",
            items: [
                DataTable.Item(group: "長さ", name: "metre", symbol: "m", value: 1),
                DataTable.Item(group: "長さ", name: "ångström", symbol: "Å", value: 1e-10)
            ])
        let panel = DataPanel(table: table, font: font, screen: pipeline.manifest.screen)
        #expect(panel.charactersSubstituted == 5)  // 長, さ, å, ö and Å
        #expect(panel.rows.map(\.title) == ["??", "metre", "?ngstr?m"])
        #expect(panel.rows[2].detail == "?")
        let drawing = panel.draw(theme: try #require(pipeline.theme), font: font)
        #expect(drawing.rowsDrawn == 3)
        #expect(drawing.canvas.pixelsDrawn > 0)
    }

    /// The worker's phases begin before the main thread's first use and may end after everything:
    /// over the protocol they stay after-launch, outside the total (a `launched` line of their own).
    @Test func aWorkersAfterLaunchPhasesStayOutOfTheTotalOverTheProtocol() throws {
        let clock = LaunchClock.startNow()
        let main = PhaseRecorder(clock: clock)
        let worker = PhaseRecorder(clock: clock, thread: 1)
        worker.recordingAfterLaunch = true
        let preload = worker.begin("preloading x")
        main.phase("drawing") { MonotonicClock.spin(until: MonotonicClock.nanoseconds() + 1_000_000) }
        main.recordingAfterLaunch = true
        main.phase("x") { MonotonicClock.spin(until: MonotonicClock.nanoseconds() + 1_000_000) }
        MonotonicClock.spin(until: MonotonicClock.nanoseconds() + 2_000_000)
        worker.end(preload)
        let lines = ProtocolWriter.lines(mainReading: clock.originNanoseconds, recorders: [main, worker], deferred: ["x"])
        var parser = ProtocolParser(spawnReading: clock.originNanoseconds)
        for line in lines { try parser.consume(Substring(line)) }
        let run = parser.run(index: 1, pid: nil)
        let parsed = try #require(run.phases.first { $0.name == "preloading x" })
        #expect(parsed.afterLaunch)
        #expect(parsed.thread == 1)
        let drawing = try #require(run.phases.first { $0.name == "drawing" })
        #expect(!drawing.afterLaunch)
        #expect(abs(run.total - drawing.end) < 1e-6)
        #expect(parsed.end > run.total + 0.001)
    }

    // MARK: The manifest

    func message(_ extra: String) -> String {
        do {
            _ = try manifest(extra)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func badPreloadValuesAreRefusedNamingTheKeyPath() throws {
        let file = Paths.defaultManifest
        #expect(message(#""preload": true"#) == "\(file): strategies.preload: expected an object, found a boolean")
        #expect(
            message(#""preload": { "stage": "loading conversions", "during": "launch animation", "when": 1 }"#)
                == #"\#(file): strategies.preload: unknown key "when" (expected: during, stage)"#)
        #expect(message(#""preload": { "stage": 3, "during": "launch animation" }"#) == "\(file): strategies.preload.stage: expected a string, found a number")
        #expect(
            message(#""preload": { "stage": "nope", "during": "launch animation" }"#)
                == #"\#(file): strategies.preload.stage: no stage is named "nope" (lazy data stages: "loading conversions", "loading constants")"#)
        #expect(
            message(#""preload": { "stage": "drawing", "during": "launch animation" }"#)
                .hasPrefix(#"\#(file): strategies.preload.stage: "drawing" is not a lazy data stage"#))
        #expect(
            message(#""preload": { "stage": "loading conversions", "during": "splash" }"#)
                == #"\#(file): strategies.preload.during: expected "launch animation" (the only moment a preload can hide under for now), found "splash""#)
        #expect(message(#""preload": { "stage": "loading conversions" }"#) == #"\#(file): strategies.preload: missing required key "during""#)
        #expect(try manifest(Self.preload).strategies.preload == PreloadSpec(stage: "loading conversions", during: .launchAnimation))
        #expect(try manifest(nil).strategies.preload == nil)
    }

    @Test func thePreloadNeedsADrawStageAtLaunch() {
        let json =
            #"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "i", "run": "init"}, {"name": "u", "run": "data", "file": "u.xml", "lazy": true}], "strategies": { \#(Self.preload.replacingOccurrences(of: "loading conversions", with: "u")) }}"#
        do {
            _ = try ManifestLoader.parse(Array(json.utf8), path: "dir/m.json")
            Issue.record("a preload without a draw stage must be refused")
        } catch {
            #expect("\(error)".hasPrefix(#"dir/m.json: strategies.preload: the preload hides under the launch animation"#))
        }
    }

    @Test func compareTurnsItOnForTheManifestsFirstLazyDataStage() throws {
        let json =
            #"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "i", "run": "init"}, {"name": "t", "run": "theme"}, {"name": "l", "run": "layout"}, {"name": "m", "run": "images"}, {"name": "d", "run": "draw"}, {"name": "c", "run": "data", "file": "c.xml"}, {"name": "units", "run": "data", "file": "u.xml", "lazy": true}], "strategies": {"preload": null}}"#
        let variants = try StrategyVariants(strategy: "preload", manifest: Array(json.utf8), path: "/d/m.json", directory: "/d")
        let on = try ManifestLoader.parse(variants.on, path: "/d/on.json")
        #expect(on.strategies.preload == PreloadSpec(stage: "units", during: .launchAnimation))
        #expect(try ManifestLoader.parse(variants.off, path: "/d/off.json").strategies.preload == nil)
        #expect(StrategyVariants.listed(in: Array(json.utf8)).contains("preload"))
    }
}

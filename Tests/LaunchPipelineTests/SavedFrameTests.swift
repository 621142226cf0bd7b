import Testing
@testable import LaunchPipeline
import LaunchCore
import LaunchImage
#if canImport(Glibc)
import Glibc
import LaunchManifest
#endif

/// `snapshotFirst`: the snapshot saved when the app entered the background is shown first at the
/// next launch, the splash when there is none or it is stale; the background step writes it.
@Suite(.serialized) struct SavedFrameTests {
    /// One launch of the manifest in `dir` (snapshot `Loading.png` there), then the background step.
    func launchAndLeave(_ dir: String) throws -> (Pipeline, RunRecord) {
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: "\(dir)/manifest.json"), recorder: recorder)
        try pipeline.launch()
        try pipeline.enterBackground(state: ["display": "42"])
        return (pipeline, RunRecord(clock: clock, recorders: [recorder]))
    }

    @Test func theFirstLaunchShowsTheSplashAndTheNextOneTheSnapshotItSaved() throws {
        let dir = try Paths.copyOfDefaultFixture()
        let (first, firstRun) = try launchAndLeave(dir)
        #expect(first.firstFrame == .splash)
        #expect(firstRun.counter("splash shown") == 1)
        let saved = try FileIO.read("\(dir)/Loading.png")
        #expect(saved == first.snapshotBytes)
        #expect(PNGTextChunk.text(of: Pipeline.snapshotKeyword, in: saved) == (try first.launchKey()))
        #expect(try FileIO.readText("\(dir)/Loading.png.state") == "display=42\n")

        let (second, secondRun) = try launchAndLeave(dir)
        #expect(second.firstFrame == .snapshot)
        #expect(secondRun.counter("snapshot shown") == 1)
        // First frame before any real initialisation; interactive after the real UI is drawn.
        let firstFrame = try #require(secondRun.marks.first { $0.name == "first frame" })
        let interactive = try #require(secondRun.marks.first { $0.name == "interactive" })
        let drawing = try #require(secondRun.phases.first { $0.name == "drawing" })
        #expect(firstFrame.time <= drawing.start)
        #expect(interactive.time >= drawing.end)
        #expect(secondRun.marks.filter { $0.name == "first frame" }.count == 1)
    }

    @Test func aSnapshotSavedWithAnotherThemeIsStaleAndTheSplashShows() throws {
        let dir = try Paths.copyOfDefaultFixture()
        _ = try launchAndLeave(dir)
        let theme = try FileIO.readText("\(dir)/theme.xml")
        try FileIO.writeAtomically(theme + "\n<!-- edited -->\n", to: "\(dir)/theme.xml")
        let (pipeline, run) = try launchAndLeave(dir)
        #expect(pipeline.firstFrame == .splashForStaleSnapshot)
        #expect(run.counter("stale snapshot ignored") == 1)
    }

    @Test func aCorruptSnapshotWithTheRightKeyIsAnErrorNamingTheFile() throws {
        let dir = try Paths.copyOfDefaultFixture()
        let (first, _) = try launchAndLeave(dir)
        var bytes = try #require(first.snapshotBytes)
        bytes.removeLast(bytes.count / 2)
        try FileIO.writeAtomically(bytes, to: "\(dir)/Loading.png")
        #expect { try launchAndLeave(dir) } throws: { "\($0)".contains("Loading.png") }
    }

    @Test func withoutSnapshotFirstTheFirstFrameIsTheEndOfTheFirstDraw() throws {
        let dir = try Paths.copyOfDefaultFixture()
        let manifest = try FileIO.readText("\(dir)/manifest.json").replacingOccurrences(of: "\"snapshotFirst\": true", with: "\"snapshotFirst\": false")
            .replacingOccurrences(of: #""loadingDialog": { "showAfter": 1.0, "minMessageSeconds": 1.5 }"#, with: #""reuseKeyBackgrounds": true"#)
        try FileIO.writeAtomically(manifest, to: "\(dir)/manifest.json")
        let (pipeline, run) = try launchAndLeave(dir)
        #expect(pipeline.firstFrame == nil)
        let firstFrame = try #require(run.marks.first { $0.name == "first frame" })
        let drawing = try #require(run.phases.first { $0.name == "drawing" })
        #expect(firstFrame.time >= drawing.start && firstFrame.time <= drawing.end + 1e-6)
        #expect(!run.phases.contains { $0.name == "showing snapshot" })
    }

    @Test func releasingCachesOnBackgroundFreesTheDecodedImages() throws {
        let dir = try Paths.copyOfDefaultFixture()
        let manifest = try FileIO.readText("\(dir)/manifest.json")
            .replacingOccurrences(of: "\"releaseCachesOnBackground\": false", with: "\"releaseCachesOnBackground\": true")
        try FileIO.writeAtomically(manifest, to: "\(dir)/manifest.json")
        let (pipeline, run) = try launchAndLeave(dir)
        #expect(pipeline.images.isEmpty && pipeline.fonts.isEmpty && pipeline.canvas == nil)
        #expect(run.phases.contains { $0.name == "releasing caches" })
        #expect((run.counter("decoded image bytes released") ?? 0) > 0)
    }
}

/// `strategies.loadingDialog`: drawn on its own thread over the first frame when init outlasts
/// `showAfter`, kept up `minMessageSeconds`; not shown when init is quicker.
@Suite(.serialized) struct LoadingDialogTests {
    func launch(dialog: String) throws -> RunRecord {
        let dir = try Paths.copyOfDefaultFixture()
        let manifest = try FileIO.readText("\(dir)/manifest.json")
            .replacingOccurrences(of: #""showAfter": 1.0, "minMessageSeconds": 1.5"#, with: dialog)
        try FileIO.writeAtomically(manifest, to: "\(dir)/manifest.json")
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: "\(dir)/manifest.json"), recorder: recorder)
        pipeline.dialogSeed = 42
        try pipeline.launch()
        return RunRecord(clock: clock, recorders: [recorder])
    }

    @Test func aLongInitShowsTheDialogForAtLeastItsMessageTime() throws {
        let run = try launch(dialog: #""showAfter": 0, "minMessageSeconds": 0.2"#)
        #expect(run.counter("loading dialog shown") == 1)
        #expect((run.counter("spinner frames drawn") ?? 0) >= 2)
        #expect((run.counter("loading dialog milliseconds") ?? 0) >= 200)
        let firstFrame = try #require(run.marks.first { $0.name == "first frame" })
        let interactive = try #require(run.marks.first { $0.name == "interactive" })
        #expect(interactive.time - firstFrame.time >= 0.2)  // The message stayed readable.
    }

    @Test func aQuickInitNeverShowsIt() throws {
        let run = try launch(dialog: #""showAfter": 60, "minMessageSeconds": 1.5"#)
        #expect(run.counter("loading dialog shown") == 0)
        #expect(run.counter("spinner frames drawn") == nil)
    }

    @Test func theMessageWrapsAtSpacesAndEndsInAnEllipsisPastItsLines() {
        let tenChars: (String) -> Bool = { $0.count <= 10 }
        #expect(LoadingDialog.wrap("Teaching the zero to be humble", maxLines: 4, fits: tenChars) == ["Teaching", "the zero", "to be", "humble"])
        #expect(LoadingDialog.wrap("Teaching the zero to be humble", maxLines: 3, fits: tenChars) == ["Teaching", "the zero", "to be..."])
        #expect(LoadingDialog.wrap("Short", maxLines: 3, fits: tenChars) == ["Short"])
        #expect(LoadingDialog.wrap("Supercalifragilistic", maxLines: 3, fits: tenChars) == ["Supercalif", "ragilistic"])
        #expect(LoadingDialog.wrap("a b c d e f g h i j k l m n o p", maxLines: 2, fits: tenChars) == ["a b c d e", "f g h i..."])
        #expect(LoadingDialog.wrap(String(repeating: "x", count: 60), maxLines: 3, fits: { $0.count <= 1 }) == ["x", "x", "..."])
    }

    @Test func theDialogDrawsItsBoxSpinnerAndMessage() throws {
        let base = Canvas(width: 320, height: 200, fill: RGBA(0, 0, 0))
        var a = base, b = base
        LoadingDialog(message: "Hi", scale: 1, font: nil).draw(on: &a, step: 0)
        LoadingDialog(message: "Hi", scale: 1, font: nil).draw(on: &b, step: 5)
        #expect(a.image != base.image)
        #expect(a.image != b.image)  // The spinner turns.
    }

    /// The README's picture is what the app draws: the default snapshot with the dialog over it
    /// (seed 42, spinner step 3). `LAUNCHPROF_UPDATE_PICTURES=1` rewrites it after a deliberate change.
    @Test func theREADMEPictureIsTheDefaultSnapshotWithTheDialogOverIt() throws {
        let dir = try Paths.copyOfDefaultFixture()
        let recorder = PhaseRecorder(clock: LaunchClock.startNow())
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: "\(dir)/manifest.json"), recorder: recorder)
        try pipeline.launch()
        try pipeline.enterBackground(state: ["display": "0"])
        let snapshot = try PNGDecoder().decode(try #require(pipeline.snapshotBytes), file: "Loading.png")
        var frame = Canvas(width: snapshot.width, height: snapshot.height, fill: RGBA(0, 0, 0))
        frame.blit(snapshot, at: (0, 0))
        let spec = try #require(pipeline.manifest.strategies.loadingDialog)
        let dialog = LoadingDialogThread(spec: spec, manifest: pipeline.manifest, frame: frame, firstFrameReading: 0, seed: 42).makeDialog()
        #expect(dialog.font != nil)
        dialog.draw(on: &frame, step: 3)
        let png = try PNGEncoder().encode(frame.image)
        let picture = Paths.packageRoot + "/docs/images/default-dialog.png"
        if getenv("LAUNCHPROF_UPDATE_PICTURES") != nil { try FileIO.writeAtomically(png, to: picture) }
        let expected = try PNGDecoder().decode(try FileIO.read(picture), file: picture)
        let same = expected == frame.image  // Compared apart: a failing #expect would print every pixel.
        #expect(same, "the dialog or the snapshot drawing changed: look at it, then LAUNCHPROF_UPDATE_PICTURES=1 make test")
    }
}

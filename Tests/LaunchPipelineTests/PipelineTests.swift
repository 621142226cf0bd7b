import Testing
@testable import LaunchPipeline
import LaunchCore
import LaunchImage
import Foundation
import LaunchManifest

@Suite struct PipelineTests {
    /// SHA-256 of the default fixture's snapshot. Update it only for an intended change of the
    /// default theme, assets or rasterizer, after looking at the new snapshot.
    static let defaultSnapshotSHA256 = "29731b2c6ab72772a2cadf853e77be7f645b0a2eb7a232670d84ca44b9467bc2"

    func launch(_ manifestPath: String, touch: [String] = []) throws -> (Pipeline, RunRecord) {
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: manifestPath), recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        for name in touch { try pipeline.touch(name) }
        // The snapshot is made when the app enters the background, after the launch.
        try pipeline.enterBackground()
        return (pipeline, RunRecord(clock: clock, recorders: [recorder], deferred: pipeline.manifest.lazyStages.map(\.name)))
    }

    @Test func defaultLaunchRunsEveryStageAsANamedPhase() throws {
        let (pipeline, run) = try launch(Paths.defaultManifest)
        let top = run.phases.filter { $0.depth == 0 }.map(\.name)
        #expect(
            top == ["showing snapshot", "Init", "loading themes", "building layouts", "loading images", "applying settings", "drawing", "entering background"])
        // No launch phase writes the snapshot: the background step does, outside the total.
        let background = try #require(run.phases.first { $0.name == "entering background" })
        #expect(background.afterLaunch)
        #expect(run.total < background.start + 1e-9)
        #expect(run.phases.filter { $0.parent == run.phases.firstIndex(of: background) }.map(\.name) == ["rendering", "encoding PNG", "saving settings"])
        let imagePhases = run.phases.filter { $0.parent == run.phases.firstIndex { $0.name == "loading images" } }
        #expect(imagePhases.map(\.name) == ["decoding font-display.png", "decoding font-label.png", "decoding icon-backspace.png", "decoding texture.png"])
        #expect(imagePhases.allSatisfy { $0.kind == .decode })
        #expect(run.counter("keys laid out") == 19)
        #expect(run.counter("images decoded") == 4)
        #expect(run.counter("image cache hits") == 0)
        #expect(run.counter("pixels drawn")! > 320 * 480)
        #expect(run.counter("key backgrounds drawn")! + run.counter("key backgrounds reused")! == 19)
        #expect(run.marks.map(\.name) == ["first frame", "interactive"])
        #expect(run.marks[0].time <= run.marks[1].time)
        #expect(run.deferred == ["loading conversions", "loading constants"])
        #expect(pipeline.layouts.keys.sorted { $0.rawValue < $1.rawValue } == [.portrait])
        #expect(pipeline.dataTables.isEmpty)
    }

    @Test func defaultSnapshotMatchesTheGoldenHash() throws {
        let (pipeline, _) = try launch(Paths.defaultManifest)
        let bytes = try #require(pipeline.snapshotBytes)
        #expect(SHA256.hex(of: bytes) == Self.defaultSnapshotSHA256)
        let decoded = try PNGDecoder().decode(bytes)
        #expect(decoded.width == 320 && decoded.height == 480)
    }

    @Test func sameManifestGivesByteIdenticalSnapshots() throws {
        let first = try launch(Paths.defaultManifest).0.snapshotBytes
        let second = try launch(Paths.defaultManifest).0.snapshotBytes
        #expect(first != nil)
        #expect(first == second)
    }

    @Test func reusingKeyBackgroundsDoesNotChangeThePicture() throws {
        let dir = try Paths.copyOfDefaultFixture()
        let manifest = try FileIO.readText("\(dir)/manifest.json")
            .replacingOccurrences(of: "\"reuseKeyBackgrounds\": true", with: "\"reuseKeyBackgrounds\": false")
        try FileIO.writeAtomically(manifest, to: "\(dir)/manifest.json")
        let (without, run) = try launch("\(dir)/manifest.json")
        #expect(run.counter("key backgrounds reused") == 0)
        #expect(run.counter("key backgrounds drawn") == 19)
        // The pixels: the bytes differ in the launch key, which names the manifest.
        let pixels = { (bytes: [UInt8]?) in try bytes.map { try PNGDecoder().decode($0) } }
        #expect(try pixels(without.snapshotBytes) == (try pixels(try launch(Paths.defaultManifest).0.snapshotBytes)))
    }

    @Test func heavyLaunchBuildsBothOrientationsAndDecodesMore() throws {
        let (pipeline, run) = try launch(Paths.heavyManifest)
        #expect(Set(pipeline.layouts.keys) == [.portrait, .landscape])
        #expect(run.counter("keys laid out")! >= 60)
        #expect(run.counter("image cache hits")! >= 1)
        #expect(pipeline.canvas?.width == 750)
        let (_, light) = try launch(Paths.defaultManifest)
        #expect(run.counter("pixels drawn")! > 4 * light.counter("pixels drawn")!)
        #expect(run.counter("decoded image bytes")! > 4 * light.counter("decoded image bytes")!)
    }

    @Test func lazyStagesAreDeferredUntilTouched() throws {
        let (pipeline, run) = try launch(Paths.defaultManifest, touch: ["loading conversions"])
        #expect(pipeline.dataTables["loading conversions"]?.items.count == 14)
        #expect(pipeline.dataTables["loading constants"] == nil)
        let touched = try #require(run.phases.first { $0.name == "loading conversions" })
        #expect(touched.afterLaunch)
        #expect(touched.start >= run.total)
        #expect(!run.phases.contains { $0.name == "loading constants" })
    }

    @Test func touchingAnUnknownStageNamesTheLazyOnes() throws {
        do {
            _ = try launch(Paths.defaultManifest, touch: ["nope"])
            Issue.record("an unknown lazy stage must fail")
        } catch {
            #expect("\(error)".contains("no lazy stage named \"nope\""))
            #expect("\(error)".contains("\"loading conversions\", \"loading constants\""))
        }
    }

    @Test func missingAssetNamesTheFile() throws {
        let dir = try Paths.copyOfDefaultFixture()
        unlink("\(dir)/assets/texture.png")
        do {
            _ = try launch("\(dir)/manifest.json")
            Issue.record("a missing asset must fail")
        } catch {
            #expect("\(error)" == "\(dir)/assets/texture.png: cannot read: No such file or directory")
        }
    }

    @Test func corruptAssetNamesTheFileAndLibpngsReason() throws {
        let dir = try Paths.copyOfDefaultFixture()
        var bytes = try FileIO.read("\(dir)/assets/font-label.png")
        for i in 100..<min(bytes.count, 400) { bytes[i] ^= 0x5A }
        try FileIO.writeAtomically(bytes, to: "\(dir)/assets/font-label.png")
        do {
            _ = try launch("\(dir)/manifest.json")
            Issue.record("a corrupt asset must fail")
        } catch let error as PNGError {
            #expect(error.file == "\(dir)/assets/font-label.png")
            #expect(!error.reason.isEmpty)
            #expect(error.description.hasPrefix("\(dir)/assets/font-label.png: invalid PNG: "))
        }
    }

    @Test func malformedThemeNamesFileLineAndColumn() throws {
        let dir = try Paths.copyOfDefaultFixture()
        try FileIO.writeAtomically("<theme>\n  <colors>\n</theme>\n", to: "\(dir)/theme.xml")
        #expect(throws: PipelineError.xml(file: "\(dir)/theme.xml", line: 3, column: 9, reason: "opening and ending tag mismatch", kind: .malformed)) {
            _ = try launch("\(dir)/manifest.json")
        }
    }
}

import Foundation
import Testing
@testable import LaunchPipeline
import LaunchCore
import LaunchImage
import LaunchManifest

/// `strategies.backgroundDecode`, `thumbnailsFirst` and `checkStaleDecodes` on the heavy fixture:
/// images decoded on worker threads and drawn once in, the same final frame as decoding on the main
/// thread; the thumbnail drawn first and replaced; the reuse race (`--force-decode-race`) proven by
/// the pixels of the final frame, with and without the check.
@Suite(.serialized) struct BackgroundDecodeTests {
    /// The heavy manifest without the snapshot (so every launch draws the same) and without its
    /// decode strategies, with `strategies` merged into its own and, if given, another theme file.
    func heavy(_ strategies: [String: Any], theme: String? = nil, assets: String? = nil) throws -> Manifest {
        var root = try #require(try JSONSerialization.jsonObject(with: Data(try FileIO.read(Paths.heavyManifest))) as? [String: Any])
        var merged = try #require(root["strategies"] as? [String: Any])
        merged["snapshotFirst"] = false
        for key in ["loadingDialog", "backgroundDecode", "thumbnailsFirst", "checkStaleDecodes"] { merged[key] = nil }
        for (key, value) in strategies { merged[key] = value }
        root["strategies"] = merged
        if let theme { root["theme"] = theme }
        if let assets { root["assets"] = assets }
        return try ManifestLoader.parse(Array(try JSONSerialization.data(withJSONObject: root)), path: Paths.heavyManifest)
    }

    func launch(_ manifest: Manifest, race: Bool = false) throws -> (Pipeline, RunRecord) {
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: manifest, recorder: recorder)
        pipeline.snapshotPath = nil
        pipeline.forceDecodeRace = race
        try pipeline.launch()
        return (pipeline, RunRecord(clock: clock, recorders: [recorder] + pipeline.workerRecorders))
    }

    @Test func imagesDecodeOnWorkersAndTheFinalFrameIsTheSame() throws {
        let (main, mainRun) = try launch(try heavy([:]))
        let (workers, run) = try launch(try heavy(["backgroundDecode": ["threads": 2]]))
        // Every font atlas and image of the theme is decoded on a worker thread, none on the main one.
        let decodes = run.phases.filter { $0.name.hasPrefix("decoding ") }
        #expect(
            decodes.map(\.name).sorted() == [
                "decoding backdrop@2x.png", "decoding font-display@2x.png", "decoding font-label@2x.png",
                "decoding icon-backspace@2x.png", "decoding logo@2x.png", "decoding texture@2x.png"
            ])
        #expect(decodes.allSatisfy { (1...2).contains($0.thread) && $0.depth == 0 && $0.kind == .decode })
        #expect(mainRun.phases.filter { $0.name.hasPrefix("decoding ") }.allSatisfy { $0.thread == 0 })
        #expect(run.counter("images queued for workers") == 6)
        // Text waits for its fonts, in a phase of the main thread.
        let wait = try #require(run.phases.first { $0.name == "waiting for fonts" })
        #expect(wait.thread == 0 && wait.kind == nil && !wait.afterLaunch)
        #expect(run.counter("images decoded") == mainRun.counter("images decoded"))
        #expect(run.counter("image cache hits") == mainRun.counter("image cache hits"))
        #expect(run.counter("decoded image bytes") == mainRun.counter("decoded image bytes"))
        // The first frame is drawn without them; the images are drawn after interactive.
        let redraws = run.phases.filter { $0.name == "drawing decoded images" }
        #expect(redraws.allSatisfy { $0.afterLaunch && $0.thread == 0 })  // None when every image was in by the first frame.
        #expect(run.counter("redraws with decoded images") == redraws.count)
        let interactive = try #require(run.marks.first { $0.name == AppInterface.interactiveMark }?.time)
        #expect(redraws.allSatisfy { $0.start >= interactive })
        #expect(run.counter("stale decodes discarded") == 0)
        let sameFrame = workers.canvas?.image == main.canvas?.image
        #expect(sameFrame)
        #expect(workers.images.keys.sorted() == main.images.keys.sorted())
    }

    @Test func theThumbnailIsDrawnFirstAndReplacedByTheFullImage() throws {
        let (plain, _) = try launch(try heavy(["backgroundDecode": ["threads": 1]]))
        let (thumbs, run) = try launch(try heavy(["backgroundDecode": ["threads": 1], "thumbnailsFirst": true]))
        let thumb = try #require(run.phases.first { $0.name == "decoding backdrop@thumb.png" })
        #expect(thumb.thread == 0 && !thumb.afterLaunch)
        let firstFrame = try #require(run.marks.first { $0.name == AppInterface.firstFrameMark }?.time)
        #expect(thumb.start + thumb.duration <= firstFrame)
        #expect(run.counter("thumbnails replaced") == 1)
        let sameFrame = thumbs.canvas?.image == plain.canvas?.image
        #expect(sameFrame)
    }

    /// The window's backdrop decodes while the window is given the next image ("backspace"); the
    /// backdrop is handed back last. Checked, it is discarded and the window shows the new image;
    /// unchecked, the backdrop is drawn over it.
    @Test func theReuseRaceIsDiscardedWithTheCheckAndDrawnWithout() throws {
        let (checked, checkedRun) = try launch(try heavy(["backgroundDecode": ["threads": 2]]), race: true)
        let (unchecked, uncheckedRun) = try launch(try heavy(["backgroundDecode": ["threads": 2], "checkStaleDecodes": false]), race: true)
        #expect(checkedRun.counter("stale decodes discarded") == 1)
        #expect(checkedRun.counter("stale images drawn") == nil)
        #expect(uncheckedRun.counter("stale images drawn") == 1)
        #expect(uncheckedRun.counter("stale decodes discarded") == nil)

        // What the window should show after the change: the theme with the window's texture swapped.
        let dir = Paths.temporaryDirectory()
        let theme = try FileIO.readText(Paths.packageRoot + "/Fixtures/heavy/theme.xml")
        #expect(theme.contains(#"texture="backdrop""#))
        try FileIO.writeAtomically(theme.replacingOccurrences(of: #"texture="backdrop""#, with: #"texture="backspace""#), to: "\(dir)/theme.xml")
        let (swapped, _) = try launch(try heavy([:], theme: "\(dir)/theme.xml"))
        let (original, _) = try launch(try heavy([:]))
        let checkedFrame = try #require(checked.canvas?.image)
        let uncheckedFrame = try #require(unchecked.canvas?.image)
        // (Compared as booleans: a failure would print every pixel.)
        let checkedShowsTheNewImage = checkedFrame == swapped.canvas?.image
        let uncheckedShowsTheOldImage = uncheckedFrame == original.canvas?.image
        #expect(checkedShowsTheNewImage)
        #expect(uncheckedShowsTheOldImage)
        // The difference is in the window's texture: at least a tenth of the pixels differ.
        let differing = stride(from: 0, to: checkedFrame.pixels.count, by: 4).filter { checkedFrame.pixels[$0..<$0 + 3] != uncheckedFrame.pixels[$0..<$0 + 3] }
            .count
        #expect(differing * 10 > checkedFrame.width * checkedFrame.height)
    }

    @Test func theRaceNeedsAWindowImage() throws {
        let dir = Paths.temporaryDirectory()
        let theme = try FileIO.readText(Paths.packageRoot + "/Fixtures/heavy/theme.xml")
        try FileIO.writeAtomically(theme.replacingOccurrences(of: #" texture="backdrop" texture-opacity="0.35""#, with: ""), to: "\(dir)/theme.xml")
        #expect { try launch(try heavy(["backgroundDecode": ["threads": 1]], theme: "\(dir)/theme.xml"), race: true) } throws: {
            "\($0)"
                == "--force-decode-race: \(dir)/theme.xml: the <window> shows no image (texture=\"…\" naming an <image>), so there is no decode to race with"
        }
    }

    /// A thumbnail that is a FIFO, an image linked to /dev/zero: refused by the thread that reads
    /// it, with the file named, and the launch ends (no hang, no wait for a decode that never comes).
    @Test func specialFilesAreRefusedOnEitherThread() throws {
        let source = Paths.packageRoot + "/Fixtures/heavy/assets"
        for (file, make) in [
            ("backdrop@thumb.png", { (path: String) in mkfifo(path, 0o600) }),
            ("backdrop@2x.png", { (path: String) in symlink("/dev/zero", path) })
        ] {
            let dir = Paths.temporaryDirectory()
            for name in FileIO.entries(of: source) where name != file {
                try FileIO.writeAtomically(try FileIO.read("\(source)/\(name)"), to: "\(dir)/\(name)")
            }
            #expect(make("\(dir)/\(file)") == 0)
            let manifest = try heavy(["backgroundDecode": ["threads": 2], "thumbnailsFirst": true], assets: dir)
            #expect { try launch(manifest) } throws: { "\($0)".contains("\(dir)/\(file)") }
        }
    }

    @Test func underInstructionCountingTheWorkerRunsOneJobAtATime() throws {
        let manifest = try heavy(["backgroundDecode": ["threads": 2]])
        let clock = LaunchClock.startNow()
        let main = PhaseRecorder(clock: clock)
        main.countsInstructions = true  // Outside Valgrind the client requests do nothing.
        let workers = DecodeWorkers(count: 2, like: main, checkStale: true, decoder: PNGDecoder())
        defer { workers.finish() }
        #expect(workers.recorders.count == 1)
        let path = manifest.resolveAsset("texture.png").path
        workers.submit(.init(path: path, fileName: "texture@2x.png", views: []))
        // Submitting waited for the decode: the result is there without waiting.
        let ready = workers.takeReady()
        #expect(ready.count == 1 && ready.first?.image?.width == 256)
        #expect(workers.next() == nil)
    }

    @Test func aDecodeForAViewThatAlreadyShowsAnotherFileIsSkipped() throws {
        let main = PhaseRecorder(clock: LaunchClock.startNow())
        main.countsInstructions = true
        let workers = DecodeWorkers(count: 1, like: main, checkStale: true, decoder: PNGDecoder())
        defer { workers.finish() }
        let path = try heavy([:]).resolveAsset("texture.png").path
        workers.show("/elsewhere.png", in: "window")
        workers.submit(.init(path: path, fileName: "texture@2x.png", views: ["window"]))
        let result = try #require(workers.next())
        #expect(result.image == nil && result.staleViews == ["window"] && result.failure == nil)
        #expect(workers.recorders[0].phaseRecords().isEmpty)
    }

    @Test(arguments: [
        (#""backgroundDecode": true"#, "strategies.backgroundDecode: expected an object, found a boolean"),
        (#""backgroundDecode": {"threads": 0}"#, "strategies.backgroundDecode.threads: expected a whole number from 1 to 8, found 0"),
        (#""backgroundDecode": {"threads": 9}"#, "strategies.backgroundDecode.threads: expected a whole number from 1 to 8, found 9"),
        (#""backgroundDecode": {"threads": 1.5}"#, "strategies.backgroundDecode.threads: expected a whole number, found a number"),
        (#""backgroundDecode": {"workers": 2}"#, #"strategies.backgroundDecode: unknown key "workers" (expected: threads)"#),
        (#""thumbnailsFirst": true"#, "strategies.thumbnailsFirst: thumbnailsFirst is about images decoded on worker threads, so it needs backgroundDecode"),
        (
            #""checkStaleDecodes": true"#,
            "strategies.checkStaleDecodes: checkStaleDecodes is about images decoded on worker threads, so it needs backgroundDecode"
        ),
        (#""backgroundDecode": {}, "thumbnailsFirst": "yes""#, "strategies.thumbnailsFirst: expected true or false, found a string"),
        (#""backgroundDecode": {}, "checkStaleDecodes": null"#, "strategies.checkStaleDecodes: expected true or false, found null")
    ])
    func badValuesAreRefusedWithTheKeyPath(strategies: String, message: String) {
        let json = #"{"theme": "t.xml", "screen": {"width": 10, "height": 10}, "stages": [{"name": "i", "run": "init"}], "strategies": {"# + strategies + "}}"
        #expect { try ManifestLoader.parse(Array(json.utf8), path: "/m/manifest.json") } throws: { "\($0)" == "/m/manifest.json: \(message)" }
    }

    @Test func theDefaultsAndTheOffValuesLoad() throws {
        let base = #"{"theme": "t.xml", "screen": {"width": 10, "height": 10}, "stages": [{"name": "i", "run": "init"}], "strategies": "#
        let on = try ManifestLoader.parse(Array((base + #"{"backgroundDecode": {}}}"#).utf8), path: "/m/m.json").strategies
        #expect(on.backgroundDecode == BackgroundDecodeSpec(threads: 2) && on.checkStaleDecodes && !on.thumbnailsFirst)
        let off = try ManifestLoader.parse(Array((base + #"{"thumbnailsFirst": false, "checkStaleDecodes": false}}"#).utf8), path: "/m/m.json").strategies
        #expect(off.backgroundDecode == nil && !off.checkStaleDecodes && !off.thumbnailsFirst)
    }
}

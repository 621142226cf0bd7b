import Glibc
import LaunchImage
import LaunchManifest
import Testing

@testable import LaunchPipeline

/// A stage's failure is a typed ``PipelineError/StageFailure``, rendered once by the error's
/// description: each case pinned to its whole message, word for word as it was when the message
/// was built at the throw site, and to the file it names.
@Suite struct StageFailureTests {
    @Test(
        arguments: [
            (
                .stagesMissing(step: "launch animation", needs: ["init", "layout", "draw"]),
                "the launch animation needs the init, layout and draw stages first", nil
            ),
            (.stagesMissing(step: "draw stage", needs: ["init", "layout"]), "the draw stage needs the init and layout stages first", nil),
            (.stagesMissing(step: "layout stage", needs: ["theme"]), "the layout stage needs the theme stage first", nil),
            (.preloadWithoutOutcome, "the preload thread ended without an outcome", nil),
            (
                .unknownLazyStage(name: "nope", manifest: "m.json", lazyStages: ["a", "b"]),
                #"no lazy stage named "nope" in m.json (lazy stages: "a", "b")"#, "m.json"
            ),
            (.unknownLazyStage(name: "nope", manifest: "m.json", lazyStages: []), #"no lazy stage named "nope" in m.json (lazy stages: none)"#, "m.json"),
            (
                .orientationWithoutLayout(theme: "t.xml", manifest: "m.json", orientation: .landscape),
                "t.xml: m.json asks for the landscape orientation, which the theme has no <layout> for", "t.xml"
            ),
            (
                .layoutDoesNotFit(
                    theme: "t.xml", line: 53, column: 110, orientation: .portrait, width: 320, height: 480, manifest: "m.json", reason: "too narrow"),
                #"t.xml:53:110: <layout orientation="portrait"> doesn't fit the 320×480 pt screen of m.json: too narrow"#, "t.xml"
            ),
            (.relayout(theme: "t.xml", orientation: .landscape, reason: "too narrow"), "t.xml: landscape layout: too narrow", "t.xml"),
            (
                .font(theme: "t.xml", line: 4, column: 7, element: "<display>", font: "label", .notLoaded),
                #"t.xml:4:7: <display>: font 'label' was not loaded: is there an "images" stage?"#, "t.xml"
            ),
            (
                .font(theme: "t.xml", line: 0, column: 0, element: "<key>", font: "label", .noGlyph(text: "A€", missing: "€")),
                #"t.xml: <key>: text "A€" uses "€", which font 'label' has no glyph for"#, "t.xml"
            ),
            (
                .slowdownNotDrawing(manifest: "m.json", stage: "theme"),
                #"m.json: test.slowdown.stage: only a draw stage can be slowed down (it repeats part of the drawing), and "theme" is not one"#, "m.json"
            ),
            (.dataStageWithoutFile(stage: "loading"), #"the data stage "loading" has no file"#, nil),
            (.snapshotFirstWithoutSplash(manifest: "m.json"), #"m.json: snapshotFirst needs a "splash" image"#, "m.json"),
            (.snapshotUntaggable, "could not tag the snapshot with its launch key", nil),
            (
                .decodeRace(theme: "t.xml", .windowShowsNoImage),
                #"--force-decode-race: t.xml: the <window> shows no image (texture="…" naming an <image>), so there is no decode to race with"#, "t.xml"
            ),
            (.decodeRace(theme: "t.xml", .noOtherImage), "--force-decode-race: t.xml has no other image file to give the window", "t.xml"),
            (.stateLock(path: "/s/a.png.lock", step: .open, errno: EACCES), "/s/a.png.lock: cannot open the state lock: Permission denied", "/s/a.png.lock"),
            (.stateLock(path: "/s/a.png.lock", step: .take, errno: EBADF), "/s/a.png.lock: cannot take the state lock: Bad file descriptor", "/s/a.png.lock"),
            (
                .unknownControlCommand(line: "jump\tup\n"),
                #"the control channel sent 'jump\tup\n', which the app does not know (docs/protocol.md lists tap, background, foreground and quit)"#, nil
            )
        ] as [(PipelineError.StageFailure, String, String?)])
    func isWordedAsBefore(failure: PipelineError.StageFailure, message: String, file: String?) {
        let error = PipelineError.stage(failure)
        #expect(error.description == message)
        #expect(error.file == file)
        #expect(error.reason == nil)
    }

    @Test func aControlLineIsCutAt80Characters() {
        let failure = PipelineError.StageFailure.unknownControlCommand(line: String(repeating: "x", count: 200))
        #expect(failure.description.contains("'\(String(repeating: "x", count: 80))'"))
    }

    @Test func anUndecodableImageIsLaunchImagesErrorAsItIs() {
        let error = PipelineError.image(.undecodable(file: "a/b.png", reason: "bad signature"))
        #expect(error.description == "a/b.png: invalid PNG: bad signature")
        #expect(error.file == "a/b.png" && error.reason == "bad signature")
    }
}

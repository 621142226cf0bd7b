import Testing
@testable import LaunchPipeline
import LaunchCore
#if canImport(Glibc)
import Glibc
import LaunchManifest
#endif

/// `strategies.coalescedLayout` and the saved settings it applies: one layout pass per orientation
/// with it, one per setter and orientation without, the same final frame either way; every bad
/// settings file refused with the file and key path.
@Suite(.serialized) struct CoalescedLayoutTests {
    func launchHeavy(coalesced: Bool) throws -> (Pipeline, RunRecord) {
        var text = try FileIO.readText(Paths.heavyManifest)
        text = text.replacingOccurrences(of: "\"coalescedLayout\": true", with: "\"coalescedLayout\": \(coalesced)")
        let manifest = try ManifestLoader.parse(Array(text.utf8), path: Paths.heavyManifest)
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: manifest, recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        return (pipeline, RunRecord(clock: clock, recorders: [recorder]))
    }

    @Test func onePassPerOrientationWithTheStrategyAndOnePerSetterWithout() throws {
        let (on, onRun) = try launchHeavy(coalesced: true)
        let (off, offRun) = try launchHeavy(coalesced: false)
        #expect(onRun.counter("settings applied") == 20)
        #expect(onRun.counter("orientations laid out") == 2)
        #expect(onRun.counter("layout passes") == 2)
        #expect(onRun.counter("layout updates cancelled") == 19)
        #expect(offRun.counter("layout passes") == 40)
        #expect(offRun.counter("layout updates cancelled") == nil)
        #expect(onRun.phases.contains { $0.name == "applying settings" && $0.depth == 0 })
        // The settings show: the sine key is relabelled, and the frames are the same pixels.
        #expect(on.layouts[.portrait]?.keys.contains { $0.spec.label == "sin⁻¹" } == true)
        #expect(on.layouts == off.layouts)
        #expect(on.canvas?.image == off.canvas?.image)
        #expect(on.savedSettings == off.savedSettings)
        // A layout pass measures each label's ink from its glyphs' pixels.
        let font = try #require(on.fonts["label"])
        #expect(font.inkBounds(of: "", height: 16) == nil)
        #expect(font.inkBounds(of: " ", height: 16) == nil)
        let eight = try #require(font.inkBounds(of: "8", height: 16))
        #expect(eight.height > 4 && eight.height <= 16 && eight.width < font.width(of: "8", height: 16))
        let two = try #require(font.inkBounds(of: "88", height: 16))
        #expect(two.width > eight.width && two.height == eight.height)
    }

    @Test func aFirstLaunchWithoutSettingsAppliesNoneAndSavesTheDefaults() throws {
        let dir = try Paths.copyOfDefaultFixture()
        unlink("\(dir)/settings.json")
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: "\(dir)/manifest.json"), recorder: recorder)
        try pipeline.launch()
        let run = RunRecord(clock: clock, recorders: [recorder])
        #expect(run.counter("settings applied") == 0)
        #expect(run.counter("layout passes") == 0)
        try pipeline.enterBackground(state: [:])
        let saved = try Settings.parse(try FileIO.read("\(dir)/settings.json"), path: "settings.json", theme: try #require(pipeline.theme))
        #expect(saved == Settings())
    }

    @Test func theSavedBytesRoundTrip() throws {
        let theme = try ThemeParser.load(path: Paths.packageRoot + "/Fixtures/heavy/theme.xml")
        let bytes = try FileIO.read(Paths.packageRoot + "/Fixtures/heavy/settings.json")
        let settings = try Settings.parse(bytes, path: "settings.json", theme: theme)
        #expect(settings.json == bytes)  // The fixture is in the app's own format: saving it changes nothing.
        #expect(settings.changes.count == 20)
    }

    @Test(arguments: [
        (#"[1]"#, "top level: expected an object, found an array"),
        (#"{"colour": "red"}"#, #"top level: unknown key "colour""#),
        (#"{"angleMode": "turns"}"#, #"angleMode: expected one of "deg", "rad", "grad", found "turns""#),
        (#"{"precision": 13}"#, "precision: expected a whole number from 0 to 12, found 13"),
        (#"{"precision": 1e300}"#, "precision: expected a whole number"),
        (#"{"memoryIndicator": 1}"#, "memoryIndicator: expected true or false, found a number"),
        (#"{"title": "\#(String(repeating: "x", count: 41))"}"#, "title: expected at most 40 characters, found 41"),
        (#"{"keyLabels": {"nope": "x"}}"#, #"keyLabels.nope: no key of the theme is labelled "nope""#),
        (#"{"keyLabels": {"sin": "sin⁻¹⁻¹⁻¹"}}"#, "keyLabels.sin: a key label must be 1 to 8 characters, found 9"),
        (#"{"keyLabels": {"sin": "日"}}"#, #"keyLabels.sin: the label font has no glyph for "日""#),
        (#"{"keyLabels": [1]}"#, "keyLabels: expected an object of key labels"),
        (#"{"title": "a""#, "not valid JSON"),
        (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "nested more than")
    ])
    func badSettingsAreRefusedWithTheKeyPath(json: String, message: String) throws {
        let theme = try ThemeParser.load(path: Paths.packageRoot + "/Fixtures/heavy/theme.xml")
        #expect { try Settings.parse(Array(json.utf8), path: "/x/settings.json", theme: theme) } throws: { error in
            "\(error)".hasPrefix("/x/settings.json: ") && "\(error)".contains(message)
        }
    }

    @Test func keysAndValuesHoldingLineBreaksStayOnOneLineOfTheMessage() throws {
        let theme = try ThemeParser.load(path: Paths.packageRoot + "/Fixtures/heavy/theme.xml")
        for json in [#"{"keyLabels": {"a\nb<x>": "C"}}"#, #"{"angleMode": "deg\r\nrad"}"#, #"{"x\ny": 1}"#] {
            #expect { try Settings.parse(Array(json.utf8), path: "s.json", theme: theme) } throws: { error in
                let message = "\(error)"
                return !message.contains("\n") && !message.contains("\r") && message.contains(#"\n"#)
            }
        }
        #expect {
            try ManifestLoader.parse(
                Array(#"{"theme": "t.xml", "screen": {"width": 10, "height": 10}, "stages": [], "sneaky\nkey": 1}"#.utf8), path: "/m/m.json")
        } throws: {
            "\($0)"
                == #"/m/m.json: top level: unknown key "sneaky\nkey" (expected: assets, name, orientations, screen, snapshot, splash, stages, strategies, test, theme)"#
        }
    }

    @Test func tooManyKeyLabelsAndNonRegularFilesAreRefused() throws {
        let theme = try ThemeParser.load(path: Paths.packageRoot + "/Fixtures/heavy/theme.xml")
        let many = "{\"keyLabels\": {" + (0..<65).map { "\"k\($0)\": \"x\"" }.joined(separator: ", ") + "}}"
        #expect { try Settings.parse(Array(many.utf8), path: "s.json", theme: theme) } throws: { "\($0)".contains("at most 64 key labels, found 65") }
        let dir = Paths.temporaryDirectory()
        #expect(mkfifo("\(dir)/settings.json", 0o600) == 0)
        #expect { try Settings.load(path: "\(dir)/settings.json", theme: theme) } throws: { "\($0)".contains("FIFO") }
        #expect { try Settings.load(path: dir, theme: theme) } throws: { "\($0)".contains(dir) }
    }

    @Test func aSettingsFileOverItsLimitIsRefusedWithoutReadingItAll() throws {
        let theme = try ThemeParser.load(path: Paths.packageRoot + "/Fixtures/heavy/theme.xml")
        let dir = Paths.temporaryDirectory()
        let huge = "{\"title\": \"x\"" + String(repeating: " ", count: InputLimit.settings.bytes) + "}"
        try FileIO.writeAtomically(Array(huge.utf8), to: "\(dir)/settings.json")
        #expect { try Settings.load(path: "\(dir)/settings.json", theme: theme) } throws: { error in
            "\(error)".hasPrefix("\(dir)/settings.json: ") && "\(error)".contains("1 MiB")
        }
    }

    @Test func theManifestKeysAreChecked() {
        let base =
            #"{"theme": "t.xml", "screen": {"width": 10, "height": 10}, "stages": [{"name": "i", "run": "init"}, {"name": "t", "run": "theme"}, {"name": "l", "run": "layout"}, {"name": "g", "run": "images"}, {"name": "s", "run": "settings"}]"#
        #expect { try ManifestLoader.parse(Array((base + #", "strategies": {"coalescedLayout": "yes"}}"#).utf8), path: "/m/manifest.json") } throws: {
            "\($0)" == "/m/manifest.json: strategies.coalescedLayout: expected true or false, found a string"
        }
        let manifest = try? ManifestLoader.parse(Array((base + "}").utf8), path: "/m/manifest.json")
        #expect(manifest?.stages.last?.file == "/m/settings.json")
        #expect {
            try ManifestLoader.parse(
                Array(
                    #"{"theme": "t.xml", "screen": {"width": 10, "height": 10}, "stages": [{"name": "i", "run": "init"}, {"name": "t", "run": "theme"}, {"name": "s", "run": "settings"}]}"#
                        .utf8), path: "/m/m.json")
        } throws: {
            "\($0)".contains("the \"settings\" stage (s) needs a \"layout\" stage before it")
        }
    }
}

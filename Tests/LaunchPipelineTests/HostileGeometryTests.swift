import Testing
@testable import LaunchPipeline
import LaunchCore
import Foundation
import LaunchManifest

/// Geometry that would size allocations from a file is refused before anything is allocated, and
/// the error names the file.
@Suite struct HostileGeometryTests {
    func theme(layoutAttributes: String = "", styleExtra: String = "") -> String {
        """
        <theme name="t">
          <fonts><font name="f" atlas="f.png" columns="16" size="10"/></fonts>
          <window background="#000"/>
          <display background="#111" font="f" text-color="#fff"/>
          <key-styles><key-style name="k" background="#222" font="f" label-color="#fff"\(styleExtra)/></key-styles>
          <layout orientation="portrait" rows="2" columns="2"\(layoutAttributes)>
            <key label="1" style="k" row="0" column="0"/>
          </layout>
        </theme>
        """
    }

    @Test func hugeShadowOffsetsAndBlursAreRefused() {
        for extra in [##" shadow="#000" shadow-offset="4096,0""##, ##" shadow="#000" shadow-offset="0,-65""##, ##" shadow="#000" shadow-blur="33""##] {
            do {
                _ = try ThemeParser.parse(Array(theme(styleExtra: extra).utf8), file: "t.xml")
                Issue.record("\(extra) was accepted")
            } catch {
                #expect("\(error)".hasPrefix("t.xml:5:"), "\(error)")
                #expect("\(error)".contains("shadow"), "\(error)")
            }
        }
    }

    @Test func negativeLengthsTheParserKnowsAreRefusedThere() {
        for attributes in [#" margin="-5000""#, #" spacing="-1""#] {
            #expect(throws: PipelineError.self, "\(attributes)") {
                try ThemeParser.parse(Array(theme(layoutAttributes: attributes).utf8), file: "t.xml")
            }
        }
    }

    /// The parser refuses negative and oversized lengths with the file, line and column; a spec
    /// built in code gets the same refusal from the layout engine, before any frame is sized.
    @Test func negativeOrOversizedLayoutLengthsAreRefusedBeforeFramesAreSized() throws {
        for attributes in [#" insets="-100000,0,0,0""#, #" insets="0,0,0,-1""#, #" margin="90000""#] {
            let thrown = #expect(throws: PipelineError.self, "\(attributes)") {
                try ThemeParser.parse(Array(theme(layoutAttributes: attributes).utf8), file: "t.xml")
            }
            #expect(thrown?.line == 6, "\(attributes)")
        }
        let parsed = try ThemeParser.parse(Array(theme().utf8), file: "t.xml")
        let valid = try #require(parsed.layouts[.portrait])
        let changes: [(inout LayoutSpec) -> Void] = [{ $0.insets.top = -100000 }, { $0.insets.left = -1 }, { $0.margin = 90000 }]
        for change in changes {
            var spec = valid
            change(&spec)
            #expect(throws: PipelineError.self) { try LayoutEngine.build(spec, portraitWidth: 320, portraitHeight: 480) }
        }
    }

    /// Through the pipeline, the layout error names the theme and the manifest.
    @Test func layoutErrorsNameTheThemeAndTheScreen() throws {
        let directory = Paths.temporaryDirectory()
        let fixture = Paths.packageRoot + "/Fixtures/default"
        var text = try FileIO.readText(fixture + "/theme.xml")
        // Within the parser's range (0 to 10,000 pt), but wider than this screen.
        text = text.replacingOccurrences(of: #"insets="20,0,0,0""#, with: #"insets="0,0,0,5000""#)
        try FileIO.writeAtomically(text, to: directory + "/theme.xml")
        let manifest = """
            {"name": "g", "theme": "theme.xml", "assets": "\(fixture)/assets", "screen": {"width": 320, "height": 480},
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}]}
            """
        try FileIO.writeAtomically(manifest, to: directory + "/manifest.json")
        let pipeline = Pipeline(
            manifest: try ManifestLoader.load(path: directory + "/manifest.json"),
            recorder: PhaseRecorder(clock: .startNow()))
        do {
            try pipeline.launch()
            Issue.record("insets wider than the screen were accepted")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix(directory + "/theme.xml:53:"), "\(message)")
            #expect(message.contains("<layout orientation=\"portrait\"> doesn't fit the 320×480 pt screen"), "\(message)")
            #expect(message.contains("insets (left) is 5000 pt"), "\(message)")
            #expect(message.contains(directory + "/manifest.json"), "\(message)")
        }
    }
}

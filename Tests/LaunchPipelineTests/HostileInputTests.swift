import Testing
@testable import LaunchPipeline
import LaunchCore
import Foundation
#if canImport(Glibc)
import Glibc
import LaunchManifest
#endif

/// Hostile and careless inputs, class by class (issue 12): each is refused with the exact kind of
/// error and a message that names the file; none crashes, hangs or allocates without bound.
@Suite struct HostileInputTests {
    func parse(_ xml: String) throws(PipelineError) -> Theme {
        try ThemeParser.parse(Array(xml.utf8), file: "t.xml")
    }

    func launch(_ manifestPath: String) throws {
        let recorder = PhaseRecorder(clock: LaunchClock.startNow())
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: manifestPath), recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        for stage in pipeline.manifest.lazyStages { try pipeline.touch(stage.name) }
    }

    /// The error `body` throws, or a recorded issue when it throws nothing.
    func error(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> (any Error)? {
        do {
            try body()
            Issue.record("expected an error", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    func replace(_ old: String, with new: String, in path: String) throws {
        let text = try FileIO.readText(path)
        #expect(text.contains(old), "fixture changed: \(old) not in \(path)")
        try FileIO.writeAtomically(text.replacingOccurrences(of: old, with: new), to: path)
    }

    // MARK: XML refused inside the parser (class 6), nesting (class 4)

    @Test(arguments: ["<!-- c -->", "<?pi data?>", "<?xml version=\"1.0\"?>\n<!-- c -->\n<?pi?>", "\n \t\n", "<?xml version=\"1.0\"?>"])
    func doctypeAfterOtherMarkupIsRefusedByTheParser(prefix: String) {
        let xml = prefix + "<!DOCTYPE theme><theme/>"
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.kind == .doctype)
        #expect(thrown?.description.hasPrefix("t.xml:") == true)
    }

    @Test func externalDTDWithoutInternalSubsetIsRefused() {
        let thrown = error { _ = try parse(#"<!DOCTYPE theme SYSTEM "http://example.com/evil.dtd"><theme/>"#) } as? PipelineError
        #expect(thrown?.kind == .doctype)
        #expect(thrown?.line == 1)
    }

    @Test func internalSubsetWithEntityDeclarationsIsRefused() {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE t [\n<!ENTITY e \"x\">\n<!ELEMENT theme ANY>\n]>\n<theme>&e;</theme>"
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.kind == .doctype)
        #expect(thrown?.line == 2)
    }

    @Test func billionLaughsAfterACommentIsRefused() {
        var xml = "<!-- first -->\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        for level in 1...9 { xml += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">" }
        xml += "]>\n<theme>&lol9;</theme>"
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.kind == .doctype)
    }

    @Test func externalParameterEntityIsRefused() {
        let xml = "<!DOCTYPE t [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]><theme/>"
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.kind == .doctype)
    }

    @Test func undeclaredEntityReferenceIsMalformed() {
        let thrown = error { _ = try parse("<theme>&xxe;</theme>") } as? PipelineError
        #expect(thrown?.kind == .malformed)
        #expect(thrown?.reason == "undeclared entity")
    }

    @Test func hundredThousandLevelsAreRefusedAtTheLimitWithFileLineAndColumn() {
        let depth = 100_000
        let xml = "<data>\n" + String(repeating: "<g>", count: depth) + String(repeating: "</g>", count: depth) + "</data>"
        let thrown = error { _ = try DataTable.parse(Array(xml.utf8), file: "deep.xml") } as? PipelineError
        #expect(thrown?.kind == .tooDeep)
        #expect(
            thrown?.description == "deep.xml:2:\(3 * SafeXMLReader.maximumDepth): elements are nested more than \(SafeXMLReader.maximumDepth) deep (the limit)")
    }

    @Test func unclosedDeepDocumentIsRefusedNotRecursed() {
        let xml = "<theme>" + String(repeating: "<a>", count: 100_000)
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.kind == .tooDeep)
    }

    // MARK: Non-regular and oversized inputs (classes 2, 3)

    /// Every input a launch reads, replaced by a FIFO or a symlink to /dev/zero: refused at once.
    @Test(arguments: ["manifest.json", "theme.xml", "conversions.xml", "assets/font-label.png"], ["fifo", "zero"])
    func nonRegularInputsAreRefused(file: String, how: String) throws {
        let dir = try Paths.copyOfDefaultFixture()
        let path = "\(dir)/\(file)"
        unlink(path)
        if how == "fifo" { #expect(mkfifo(path, 0o600) == 0) } else { #expect(symlink("/dev/zero", path) == 0) }
        let thrown = error { try launch("\(dir)/manifest.json") } as? CoreError
        #expect(thrown == .notRegularFile(path: path, type: how == "fifo" ? "a FIFO (named pipe)" : "a character device"))
        #expect(thrown?.path == path)
        #expect(
            thrown?.description
                == "\(path): is \(how == "fifo" ? "a FIFO (named pipe)" : "a character device"), not a regular file: launchprof reads inputs from regular files only"
        )
    }

    /// An oversized input of each kind (sparse: nothing is written), refused before it is read.
    @Test(arguments: [
        ("manifest.json", InputLimit.manifest), ("theme.xml", .theme), ("conversions.xml", .data),
        ("assets/font-label.png", .asset)
    ])
    func oversizedInputsAreRefused(file: String, kind: InputLimit) throws {
        let dir = try Paths.copyOfDefaultFixture()
        let path = "\(dir)/\(file)"
        #expect(truncate(path, off_t(kind.bytes + 1)) == 0)
        let thrown = error { try launch("\(dir)/manifest.json") } as? CoreError
        #expect(thrown == .tooLarge(path: path, size: kind.bytes + 1, limit: kind.bytes, kind: "a \(kind.name)"))
        #expect(thrown?.description == "\(path): is \(kind.bytes + 1) bytes, larger than the limit of \(InputLimit.describe(kind.bytes)) for a \(kind.name)")
    }

    // MARK: Numbers and geometry in files (classes 1, 5)

    @Test(arguments: [
        (#"insets="-100000,0,0,0""#, "attribute 'insets': each of the 4 numbers must be from 0 to 10000, not '-100000,0,0,0'"),
        (#"insets="20,0,0,1e300""#, "attribute 'insets': each of the 4 numbers must be from 0 to 10000, not '20,0,0,1e300'"),
        (#"insets="20,0,0,nan""#, "attribute 'insets' must be 4 comma-separated numbers, not '20,0,0,nan'"),
        (#"margin="1e9""#, "attribute 'margin' must be between -10000 and 10000, not 1e9"),
        (#"spacing="-1""#, "attribute 'spacing' must be at least 0, not -1"),
        (#"rows="100000""#, "attribute 'rows' must be at most 64, not 100000"),
        (#"rows="99999999999999999999999""#, "attribute 'rows' must be a whole number, not '99999999999999999999999'")
    ])
    func outOfRangeLayoutNumbersAreRefused(attribute: String, reason: String) {
        let rows = attribute.hasPrefix("rows=") ? "" : #"rows="2""#
        let xml = """
            <theme><fonts><font name="f" atlas="f.png" columns="16" size="10"/></fonts>
            <window background="#000"/><display background="#111" font="f" text-color="#fff"/>
            <key-styles><key-style name="k" background="#222" font="f" label-color="#fff"/></key-styles>
            <layout orientation="portrait" \(rows) columns="2" \(attribute)/></theme>
            """
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.kind == .invalid)
        #expect(thrown?.file == "t.xml")
        #expect(thrown?.line == 4)
        #expect(thrown?.reason == reason)
    }

    @Test(arguments: [
        (##"shadow="#000" shadow-offset="0,100000""##, "attribute 'shadow-offset': each of the 2 numbers must be from -64 to 64, not '0,100000'"),
        (##"shadow="#000" shadow-offset="-1e308,0""##, "attribute 'shadow-offset': each of the 2 numbers must be from -64 to 64, not '-1e308,0'"),
        (##"shadow="#000" shadow-blur="1000""##, "attribute 'shadow-blur' must be at most 32, not 1000"),
        (#"corner-radius="1e12""#, "attribute 'corner-radius' must be between -10000 and 10000, not 1e12"),
        (#"border-width="-3""#, "attribute 'border-width' must be at least 0, not -3"),
        (#"label-size="100000""#, "attribute 'label-size' must be at most 1000, not 100000")
    ])
    func outOfRangeStyleNumbersAreRefused(attribute: String, reason: String) {
        let xml = """
            <theme><fonts><font name="f" atlas="f.png" columns="16" size="10"/></fonts>
            <window background="#000"/><display background="#111" font="f" text-color="#fff"/>
            <key-styles><key-style name="k" background="#222" font="f" label-color="#fff" \(attribute)/></key-styles>
            <layout orientation="portrait" rows="2" columns="2"/></theme>
            """
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.kind == .invalid)
        #expect(thrown?.line == 3)
        #expect(thrown?.reason == reason)
    }

    @Test func gradientAnglesAreBounded() {
        let xml = ##"<theme><gradients><gradient name="g" angle="1e300"><stop offset="0" color="#000"/></gradient></gradients></theme>"##
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.reason == "attribute 'angle' must be at most 360, not 1e300")
    }

    @Test func hugeTextsAndGradientsAreRefused() {
        let label = String(repeating: "1", count: 100_000)
        let xml = """
            <theme><fonts><font name="f" atlas="f.png" columns="16" size="10"/></fonts>
            <window background="#000"/><display background="#111" font="f" text-color="#fff"/>
            <key-styles><key-style name="k" background="#222" font="f" label-color="#fff"/></key-styles>
            <layout orientation="portrait" rows="2" columns="2"><key label="\(label)" style="k" row="0" column="0"/></layout></theme>
            """
        let thrown = error { _ = try parse(xml) } as? PipelineError
        #expect(thrown?.reason == "attribute 'label' is 100000 characters long, more than 256")
        let stops = String(repeating: ##"<stop offset="0.5" color="#000"/>"##, count: 1000)
        let gradient = error { _ = try parse(##"<theme><gradients><gradient name="g">"## + stops + "</gradient></gradients></theme>") } as? PipelineError
        #expect(gradient?.reason == "gradient 'g' has 1000 stops, more than 256")
    }

    /// The largest shadow the ranges allow, at the largest scale, still draws quickly in a bounded tile.
    @Test func theLargestAllowedShadowDrawsInABoundedTile() throws {
        let dir = try Paths.copyOfDefaultFixture()
        try replace(#"shadow-offset="0,2" shadow-blur="2""#, with: #"shadow-offset="-64,64" shadow-blur="32""#, in: "\(dir)/theme.xml")
        try replace(#""scale": 1"#, with: #""scale": 2"#, in: "\(dir)/manifest.json")
        try launch("\(dir)/manifest.json")
    }

    /// Insets and margins that leave no room: the error names the theme, the <layout> and the screen.
    @Test func aLayoutThatDoesNotFitNamesTheThemeTheElementAndTheScreen() throws {
        let dir = try Paths.copyOfDefaultFixture()
        try replace(#"insets="20,0,0,0" margin="10""#, with: #"insets="20,200,0,200" margin="10""#, in: "\(dir)/theme.xml")
        let thrown = error { try launch("\(dir)/manifest.json") } as? PipelineError
        let message = try #require(thrown?.description)
        #expect(message.hasPrefix("\(dir)/theme.xml:53:"), "\(message)")
        #expect(message.contains("<layout orientation=\"portrait\"> doesn't fit the 320×480 pt screen of \(dir)/manifest.json: keys would be"), "\(message)")
    }

    @Test func aMissingGlyphNamesTheThemeAndTheKey() throws {
        let dir = try Paths.copyOfDefaultFixture()
        try replace(#"<key label="AC""#, with: #"<key label="A€""#, in: "\(dir)/theme.xml")
        unlink("\(dir)/settings.json")  // It relabels "AC", which this theme no longer has.
        let thrown = error { try launch("\(dir)/manifest.json") } as? PipelineError
        let message = try #require(thrown?.description)
        #expect(message.hasPrefix("\(dir)/theme.xml:54:"), "\(message)")
        #expect(message.hasSuffix(#"<key label="A€"> (style 'function'): text "A€" uses "€", which font 'label' has no glyph for"#), "\(message)")
    }

    @Test func aMissingGlyphInTheDisplayNamesTheDisplay() throws {
        let dir = try Paths.copyOfDefaultFixture()
        try replace(#"text="1234.5""#, with: #"text="12€""#, in: "\(dir)/theme.xml")
        let thrown = error { try launch("\(dir)/manifest.json") } as? PipelineError
        let message = try #require(thrown?.description)
        #expect(message.hasPrefix("\(dir)/theme.xml:43:"), "\(message)")
        #expect(message.contains("<display>: text \"12€\""), "\(message)")
    }

    // MARK: Manifest JSON (classes 1, 4)

    @Test func deeplyNestedManifestIsRefusedBeforeDecoding() {
        let json = "{\"name\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        let thrown = error { _ = try ManifestLoader.parse(Array(json.utf8), path: "m.json") } as? ManifestError
        #expect(thrown?.description == "m.json: line 1, column 73: nested more than 64 levels deep (a manifest needs 3)")
    }

    @Test(arguments: [
        (#""screen": {"width": 1e300, "height": 480}"#, "m.json: screen.width: expected a whole number, found a number"),
        (#""screen": {"width": -320, "height": 480}"#, "m.json: screen.width: expected a whole number from 1 to 8192, found -320"),
        (#""screen": {"width": 320, "height": 480, "scale": 99}"#, "m.json: screen.scale: expected a whole number from 1 to 4, found 99"),
        (#""screen": {"width": 4000, "height": 480, "scale": 4}"#, "m.json: screen: 4000×480 @4x is larger than 8192 pixels on a side")
    ])
    func outOfRangeManifestNumbersAreRefused(screen: String, message: String) {
        let json = #"{"theme": "t.xml", \#(screen), "stages": [{"name": "Init", "run": "init"}]}"#
        let thrown = error { _ = try ManifestLoader.parse(Array(json.utf8), path: "m.json") } as? ManifestError
        #expect(thrown?.description == message)
    }
}

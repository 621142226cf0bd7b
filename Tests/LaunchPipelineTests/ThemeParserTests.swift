import Testing
@testable import LaunchPipeline
import Foundation
import LaunchImage

@Suite struct ThemeParserTests {
    func parse(_ xml: String) throws(PipelineError) -> Theme {
        try ThemeParser.parse(Array(xml.utf8), file: "t.xml")
    }

    /// A minimal valid theme, with `extra` spliced into the layout.
    func minimal(layout: String = #"<key label="1" style="k" row="0" column="0"/>"#, styleExtra: String = "") -> String {
        """
        <theme name="t">
          <fonts><font name="f" atlas="f.png" columns="16" size="10"/></fonts>
          <window background="#000"/>
          <display background="#111" font="f" text-color="#fff"/>
          <key-styles><key-style name="k" background="#222" font="f" label-color="#fff"\(styleExtra)/></key-styles>
          <layout orientation="portrait" rows="2" columns="2">
            \(layout)
          </layout>
        </theme>
        """
    }

    @Test func defaultFixtureParses() throws {
        let theme = try ThemeParser.load(path: Paths.defaultTheme)
        #expect(theme.name == "Graphite")
        #expect(theme.colors.count == 9)
        #expect(theme.colors["shadow"] == RGBA(0, 0, 0, 0x80))
        #expect(theme.gradients["operator"]?.stops.map(\.color) == [RGBA(0xff, 0xa7, 0x26), RGBA(0xef, 0x8a, 0x00)])
        #expect(theme.keyStyles.keys.sorted() == ["digit", "function", "operator"])
        #expect(theme.fonts["label"]?.characters.count == FontSpec.defaultCharacters.count)
        #expect(theme.layouts[.portrait]?.keys.count == 19)
        #expect(theme.layouts[.landscape]?.keys.count == 20)
        let zero = try #require(theme.layouts[.portrait]?.keys.first { $0.label == "0" })
        #expect(zero.columnSpan == 2)
        #expect(theme.layouts[.portrait]?.insets == EdgeInsets(top: 20, right: 0, bottom: 0, left: 0))
        let offset = try #require(theme.keyStyles["digit"]?.shadowOffset)
        #expect(offset == (0, 2))
    }

    @Test func heavyFixtureParses() throws {
        let theme = try ThemeParser.load(path: Paths.packageRoot + "/Fixtures/heavy/theme.xml")
        let keys = theme.layouts.values.reduce(0) { $0 + $1.keys.count }
        #expect(keys >= 60)
        #expect(theme.layouts.count == 2)
        #expect(theme.keyStyles.count >= 4)
    }

    @Test func minimalThemeParses() throws {
        let theme = try parse(minimal())
        #expect(
            theme.layouts[.portrait]?.keys == [
                KeySpec(
                    label: "1", icon: nil, style: "k", row: 0, column: 0, rowSpan: 1, columnSpan: 1,
                    sourceLine: 7, sourceColumn: 48)
            ])
    }

    // Syntax errors: file:line:column from libxml2.
    @Test func mismatchedTagGivesLineAndColumn() {
        #expect(throws: PipelineError.xml(file: "t.xml", line: 3, column: 12, reason: "opening and ending tag mismatch", kind: .malformed)) {
            try parse("<theme>\n  <colors>\n  </colour>\n</theme>")
        }
    }

    @Test func unquotedAttributeGivesLineAndColumn() {
        #expect(throws: PipelineError.xml(file: "t.xml", line: 2, column: 17, reason: "attribute value must be quoted", kind: .malformed)) {
            try parse("<theme>\n  <window shade=dark/>\n</theme>")
        }
    }

    @Test func truncatedDocumentGivesLineAndColumn() {
        #expect(
            throws: PipelineError.xml(
                file: "t.xml", line: 2, column: 11, reason: "premature end of document: <colors> (line 2) is not closed", kind: .malformed)
        ) {
            try parse("<theme>\n  <colors>")
        }
    }

    @Test func invalidUTF8IsRefusedWithItsPosition() {
        // Foundation's XMLParser would trap on a name holding this byte; it never gets there.
        var bytes = Array("<theme>\n  <colors nam".utf8)
        bytes.append(0xED)
        bytes += Array("e=\"x\"/></theme>".utf8)
        #expect(
            throws: PipelineError.xml(
                file: "t.xml", line: 2, column: 14, reason: "invalid UTF-8 (byte 0xED): themes and data files must be UTF-8", kind: .encoding)
        ) {
            try ThemeParser.parse(bytes, file: "t.xml")
        }
    }

    @Test func otherEncodingsAreRefused() {
        #expect(
            throws: PipelineError.xml(
                file: "t.xml", line: 1, column: 1, reason: "encoding 'ISO-8859-1' is not supported: themes and data files must be UTF-8", kind: .encoding)
        ) {
            try parse("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<theme/>")
        }
    }

    @Test func emptyDocument() {
        #expect(throws: PipelineError.self) { try parse("") }
    }

    // Entities: never resolved, never expanded.
    @Test func billionLaughsIsRefused() {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              <!ENTITY lol "lol">
              <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
            ]>
            <theme>&lol2;</theme>
            """
        // Refused by the parser itself when it reaches the internal subset (line 2, after `lolz [`).
        #expect(
            throws: PipelineError.xml(
                file: "t.xml", line: 2, column: 16, reason: "DOCTYPE declarations are not allowed (entities are never expanded)", kind: .doctype)
        ) {
            try parse(bomb)
        }
    }

    @Test func externalEntityIsRefused() {
        let xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE t [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<theme>&xxe;</theme>"
        #expect(
            throws: PipelineError.xml(
                file: "t.xml", line: 2, column: 13, reason: "DOCTYPE declarations are not allowed (entities are never expanded)", kind: .doctype)
        ) {
            try parse(xxe)
        }
    }

    /// Markup before the DOCTYPE cannot smuggle it past a text scan: the parser refuses it itself.
    @Test func doctypeAfterOtherMarkupIsStillRefused() {
        for prefix in ["<?xml version=\"1.0\"?><?pi data?>", "<!-- a comment -->", "<?x?>", "\n\n  "] {
            let xxe = prefix + "<!DOCTYPE t [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><theme>&xxe;</theme>"
            #expect(throws: PipelineError.self, "\(prefix)") { try parse(xxe) }
            do { _ = try parse(xxe) } catch {
                #expect(error.description.contains("DOCTYPE declarations are not allowed"), "\(prefix): \(error)")
            }
        }
    }

    /// Tens of thousands of levels: refused at the depth limit with the line, never a stack overflow.
    @Test func deepNestingIsRefusedAtTheLimit() {
        let depth = 50_000
        let deep = "<theme>\n" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</theme>"
        #expect(
            throws: PipelineError.xml(
                file: "t.xml", line: 2, column: 3 * SafeXMLReader.maximumDepth,
                reason: "elements are nested more than \(SafeXMLReader.maximumDepth) deep (the limit)", kind: .tooDeep)
        ) {
            try parse(deep)
        }
    }

    /// Foundation's XMLParser crashed (strlen of NULL) on a processing instruction without data.
    @Test func processingInstructionsWithoutDataAreIgnored() throws {
        _ = try parse("<?x?>" + minimal())
    }

    @Test func doctypeInsideACommentIsHarmless() throws {
        _ = try parse("<!-- <!DOCTYPE x> -->\n" + minimal())
    }

    @Test func undeclaredEntityIsAnError() {
        #expect(throws: PipelineError.self) { try parse("<theme>&nope;</theme>") }
    }

    // Meaning errors: the element's position and what was expected.
    @Test func unknownKeyStyleNamesTheLine() {
        do {
            _ = try parse(minimal(layout: #"<key label="1" style="nope" row="0" column="0"/>"#))
            Issue.record("an unknown style must fail")
        } catch {
            #expect(error.line == 7)
            #expect(error.reason == "unknown key style 'nope' (defined: k)")
        }
    }

    @Test func unknownAttributeIsRefused() {
        do {
            _ = try parse(minimal(styleExtra: ##" colour="#fff""##))
            Issue.record("an unknown attribute must fail")
        } catch {
            #expect(error.line == 5)
            #expect(error.reason?.hasPrefix("<key-style> has no attribute 'colour'") == true)
        }
    }

    @Test func badNumbersAndRangesAreExplained() {
        #expect(throws: PipelineError.self) { try parse(minimal(layout: #"<key label="1" style="k" row="two" column="0"/>"#)) }
        do {
            _ = try parse(minimal(layout: #"<key label="1" style="k" row="5" column="0"/>"#))
            Issue.record("a key outside the grid must fail")
        } catch {
            #expect(error.reason == "attribute 'row' must be at most 1, not 5")
        }
    }

    @Test func overlappingKeysAreRefused() {
        let layout = #"<key label="1" style="k" row="0" column="0" column-span="2"/><key label="2" style="k" row="0" column="1"/>"#
        do {
            _ = try parse(minimal(layout: layout))
            Issue.record("overlapping keys must fail")
        } catch {
            #expect(error.reason == "key overlaps key 1 of this layout at row 0, column 1")
        }
    }

    @Test func badColourIsExplained() {
        do {
            _ = try parse(minimal().replacingOccurrences(of: ##"<window background="#000"/>"##, with: ##"<window background="#00g"/>"##))
            Issue.record("a bad colour must fail")
        } catch {
            #expect(error.line == 3)
            #expect(error.reason == "attribute 'background': '#00g' is not a defined gradient or colour, nor a #hex colour")
        }
    }

    @Test func hexColoursParse() {
        #expect(parseHexColor("#fff") == RGBA(255, 255, 255))
        #expect(parseHexColor("#102030") == RGBA(0x10, 0x20, 0x30))
        #expect(parseHexColor("#10203040") == RGBA(0x10, 0x20, 0x30, 0x40))
        #expect(parseHexColor("102030") == nil)
        #expect(parseHexColor("#12345") == nil)
    }
}

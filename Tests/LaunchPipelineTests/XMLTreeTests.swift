import Testing
@testable import LaunchPipeline

/// The flat document arena (`XMLTree`, `XMLNode`) the C shim builds from libxml2's callbacks: its
/// structure, names, attributes, text and positions, documents read in several 16 KiB pieces, the
/// recycled arena, and the UTF-8 check in C against the positions the Swift walk reports.
@Suite struct XMLTreeTests {
    func parse(_ xml: String) throws(PipelineError) -> XMLTree {
        try SafeXMLReader.parse(Array(xml.utf8), file: "t.xml")
    }

    func failure(_ xml: [UInt8]) -> PipelineError? {
        do {
            _ = try SafeXMLReader.parse(xml, file: "t.xml")
            return nil
        } catch {
            return error
        }
    }

    @Test func ampersandsInAttributesAreTheirText() throws {
        let tree = try parse(#"<r a="A &amp; B" b="&amp;#38;" c="&#38;&#38;" d="&amp;&amp;x&amp;" e="no amp"/>"#)
        #expect(tree.root.attribute("a") == "A & B")
        // An escaped `&#38;` stays that text; character references to `&` are ampersands.
        #expect(tree.root.attribute("b") == "&#38;")
        #expect(tree.root.attribute("c") == "&&")
        #expect(tree.root.attribute("d") == "&&x&")
        #expect(tree.root.attribute("e") == "no amp")
    }

    @Test func elementsAttributesAndPositions() throws {
        let tree = try parse(
            """
            <root a="1" b="two">
              <first x="&amp;&lt;&#x41;&#233;"/>
              <second/>
              <first y=""/>
            </root>
            """)
        let root = tree.root
        #expect(tree.elementCount == 4)
        #expect(root.name == "root" && root.isNamed("root") && !root.isNamed("roo") && !root.isNamed("roots"))
        #expect((root.line, root.column) == (1, 20))
        #expect(root.attributeCount == 2)
        #expect((0..<2).map(root.attributeName(at:)) == ["a", "b"])
        #expect(root.attribute("a") == "1" && root.attribute("b") == "two" && root.attribute("c") == nil)
        #expect(root.hasAttribute("b") && !root.hasAttribute("B"))
        #expect(Array(root.children).map(\.name) == ["first", "second", "first"])
        #expect(root.children(named: "first").count == 2)
        let first = try #require(root.child(named: "first"))
        // libxml2 without entity substitution hands `&amp;` back as `&#38;`: the builder makes it `&` again.
        #expect(first.attribute("x") == "&<Aé")
        #expect((first.line, first.column) == (2, 35))
        #expect(root.children(named: "first").last?.attribute("y") == "")
        #expect(root.child(named: "second")?.children.isEmpty == true)
        #expect(root.child(named: "third") == nil)
    }

    @Test func textIsJoinedAroundChildrenAndTrimmed() throws {
        let tree = try parse("<r>\n  a &amp; <b> x </b> c<![CDATA[<d>]]>\t\n</r>")
        #expect(tree.root.text == "a &  c<d>")
        #expect(tree.root.child(named: "b")?.text == "x")
        #expect(try parse("<r>  \n </r>").root.text == "")
        #expect(try parse("<r/>").root.text == "")
    }

    @Test func prefixedNamesKeepThePrefixAndAttributesTheirLocalName() throws {
        let root = try parse(#"<p:x xmlns:p="urn:a" p:y="1" z="2"><p:c/><c/></p:x>"#).root
        #expect(root.name == "p:x" && root.isNamed("p:x") && !root.isNamed("x"))
        #expect(root.attribute("y") == "1" && root.attribute("z") == "2")
        #expect(Array(root.children).map(\.name) == ["p:c", "c"])
    }

    @Test func nonASCIINamesCompareAsBytes() throws {
        let root = try parse(#"<größe wert="€𝄞"><é/></größe>"#).root
        #expect(root.isNamed("größe") && root.name == "größe")
        #expect(root.attribute("wert") == "€𝄞")
        #expect(root.child(named: "é") != nil)
    }

    @Test func manyNamesAndAttributesGrowTheTables() throws {
        let names = (0..<1000).map { "e\($0)" }
        let attributes = (0..<40).map { " a\($0)=\"\($0)\"" }.joined()
        let tree = try parse("<r" + attributes + ">" + names.map { "<\($0)/>" }.joined() + "</r>")
        #expect(Array(tree.root.children).map(\.name) == names)
        #expect(tree.root.attributeCount == 40)
        #expect((0..<40).allSatisfy { tree.root.attribute("a\($0)") == "\($0)" })
    }

    /// Larger than libxml2's 16 KiB pieces: the same elements, a long attribute across pieces, and an
    /// error's line and column the same as in a small document.
    @Test func documentsInSeveralPiecesReadTheSame() throws {
        let items = (0..<3000).map { #"<item name="n\#($0)" value="\#($0)"/>"# }
        let long = String(repeating: "0123456789", count: 5000)
        let tree = try parse("<data>\n" + items.joined(separator: "\n") + "\n<long v=\"\(long)\">text</long></data>")
        let children = Array(tree.root.children)
        #expect(children.count == 3001)
        #expect(children[2999].attribute("name") == "n2999" && children[2999].line == 3001)
        #expect(children[3000].attribute("v") == long && children[3000].text == "text")

        let small = "<a>\n<b></c>\n</a>"
        let padding = String(repeating: "<!-- padding padding padding padding -->\n", count: 2000)
        let near = try #require(failure(Array(small.utf8)))
        let far = try #require(failure(Array((padding + small).utf8)))
        #expect(near.reason == "opening and ending tag mismatch")
        #expect(far.reason == near.reason)
        #expect(far.line == near.line.map { $0 + 2000 } && far.column == near.column)
    }

    @Test func aPrematureEndNamesTheInnermostOpenElementPastThePieces() throws {
        let xml = "<data>\n" + String(repeating: "<item a=\"1\"/>\n", count: 3000) + "<group>\n<item>"
        let thrown = try #require(failure(Array(xml.utf8)))
        #expect(thrown.reason == "premature end of document: <item> (line 3003) is not closed")
    }

    @Test func treesStayIndependentWhenArenasAreRecycled() throws {
        let big = try parse("<big>" + String(repeating: #"<x v="a"/>"#, count: 5000) + "</big>")
        let small = try parse(#"<small v="b"><y/></small>"#)
        #expect(small.elementCount == 2 && small.root.attribute("v") == "b")
        #expect(big.elementCount == 5001 && big.root.child(named: "x")?.attribute("v") == "a")
        // Parsed again after both are gone: a recycled arena starts empty.
        _ = consume big
        _ = consume small
        let again = try parse("<z/>")
        #expect(again.elementCount == 1 && again.root.name == "z" && again.root.attributeCount == 0)
    }

    /// The C check (eight ASCII bytes a step) refuses what the Swift walk finds, at the walk's
    /// position, wherever the bad byte stands.
    @Test func invalidUTF8IsFoundAtItsPositionPastTheFastPath() throws {
        let prefix = Array("<r>\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 37)
        let cases: [([UInt8], UInt8)] = [
            ([0xC0, 0x80], 0xC0),  // overlong NUL
            ([0xE0, 0x80, 0x80], 0xE0),  // overlong
            ([0xED, 0xA0, 0x80], 0xED),  // surrogate
            ([0xF4, 0x90, 0x80, 0x80], 0xF4),  // past U+10FFFF
            ([0xF5, 0x80, 0x80, 0x80], 0xF5),
            ([0x80], 0x80),  // lone continuation
            ([0xC3], 0xC3),  // truncated at the end
            ([0x00], 0x00)  // NUL
        ]
        for (bad, byte) in cases {
            let thrown = try #require(failure(prefix + bad))
            #expect(thrown.kind == .encoding)
            #expect(thrown.line == 2 && thrown.column == 38)
            #expect(thrown.reason?.hasPrefix("invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))") == true)
        }
        let valid = Array("<r>".utf8) + Array(repeating: UInt8(ascii: "y"), count: 40) + Array("é€𝄞</r>".utf8)
        #expect(try SafeXMLReader.parse(valid, file: "t.xml").root.text == String(repeating: "y", count: 40) + "é€𝄞")
    }
}

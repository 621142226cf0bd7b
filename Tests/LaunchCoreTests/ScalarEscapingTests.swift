import LaunchCore
import Testing

/// The one loop behind the text escapers: each scalar the table names replaced, scalar by scalar.
@Suite struct ScalarEscapingTests {
    @Test func aCarriageReturnLineFeedPairIsTwoScalarsEachReplaced() {
        // "\r\n" is one Swift Character, equal to neither "\r" nor "\n": the loop must see both.
        let escaped = ScalarEscaping.escape("a\r\nb", prefix: "[", suffix: "]") { $0 == "\r" ? "<CR>" : $0 == "\n" ? "<LF>" : nil }
        #expect(escaped == "[a<CR><LF>b]")
    }

    @Test func scalarsTheTableDoesNotNameAreKept() {
        #expect(ScalarEscaping.escape("é ⁻¹ 😀 \u{301}") { _ in nil } == "é ⁻¹ 😀 \u{301}")
        #expect(ScalarEscaping.escape("", prefix: "\"", suffix: "\"") { _ in "x" } == "\"\"")
    }

    @Test func theEscapersKeepTheirTables() {
        #expect(XMLText.escape("<a & 'b'>\r\n\u{1}") == "&lt;a &amp; &apos;b&apos;&gt;&#13;&#10;\u{FFFD}")
        #expect(PlainText.oneLine("a\\b\r\n\u{7F}") == "a\\\\b\\r\\n\\u{7f}")
        #expect(ProtocolWriter.escape("tab\there\r\n\\") == "tab\\there\\r\\n\\\\")
    }
}

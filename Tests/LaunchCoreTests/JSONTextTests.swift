import Foundation
import Testing
import LaunchCore

/// The one JSON string escaper behind the Chrome trace and the saved settings.
@Suite struct JSONTextTests {
    @Test func everyCharacterJSONForbidsIsEscaped() {
        #expect(JSONText.quoted(#"a "b" \c"#) == #""a \"b\" \\c""#)
        #expect(JSONText.quoted("1\n2\r3\t4\u{0}5\u{1F}6") == #""1\n2\r3\t4\u00005\u001f6""#)
        #expect(JSONText.quoted("sin⁻¹ 😀") == "\"sin⁻¹ 😀\"")
    }

    @Test func whatItWritesReadsBackAsTheSameText() throws {
        for text in ["", "plain", "quote \" and \\", "lines\r\nand\ttabs", "\u{7}\u{1B}[31m", "é ⁻¹ 😀 \u{2028}"] {
            let parsed = try JSONSerialization.jsonObject(with: Data(JSONText.quoted(text).utf8), options: .fragmentsAllowed) as? String
            #expect(parsed == text)
        }
    }
}

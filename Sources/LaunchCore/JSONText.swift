/// JSON text written by hand (the Chrome trace, the saved settings): one string escaper for both.
public enum JSONText {
    /// `text` as a JSON string literal: quote and backslash escaped, line breaks and tabs as `\n`,
    /// `\r`, `\t`, other control characters as `\u00XX`; everything else as it is (UTF-8).
    public static func quoted(_ text: String) -> String {
        ScalarEscaping.escape(text, prefix: "\"", suffix: "\"", escape)
    }

    /// What a JSON string holds `scalar` as, `nil` for itself.
    static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            guard scalar.value < 0x20 else { return nil }
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}

/// JSON text written by hand (the Chrome trace, the saved settings): one string escaper for both.
public enum JSONText {
    /// `text` as a JSON string literal: quote and backslash escaped, line breaks and tabs as `\n`,
    /// `\r`, `\t`, other control characters as `\u00XX`; everything else as it is (UTF-8).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

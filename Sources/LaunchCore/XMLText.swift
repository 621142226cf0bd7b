/// Escaping for XML text and attribute values (SVG, JUnit).
public enum XMLText {
    /// `text` as well-formed XML 1.0 character data, usable in text and in quoted attribute values:
    /// the five special characters as entities; tab, line feed and carriage return as character
    /// references (so attribute values keep them); characters XML 1.0 cannot hold (the other C0
    /// controls, U+FFFE, U+FFFF) replaced by U+FFFD.
    public static func escape(_ text: String) -> String {
        ScalarEscaping.escape(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\t": "&#9;"
            case "\n": "&#10;"
            case "\r": "&#13;"
            default: isAllowed(scalar) ? nil : "\u{FFFD}"
            }
        }
    }

    /// Whether XML 1.0 allows `scalar` as a character (`Char` production; Swift strings hold no surrogates).
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x20...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}

/// Escaping for names placed in line-oriented text reports: a name holding a line break or another
/// control character cannot start a line of its own that looks like part of the report.
public enum PlainText {
    /// `text` on one line: backslash as `\\`, line feed as `\n`, carriage return as `\r`, tab as
    /// `\t`, any other control character (C0, DEL, C1, U+2028/U+2029) as `\u{hex}`.
    public static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || visibleControl($0) != nil }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                out += "\\\\"
            } else if let visible = visibleControl(scalar) {
                out += "\\" + visible
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The escape (without its backslash) for a control or line-separating scalar, `nil` for others.
    public static func visibleControl(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: return "n"
        case 0x0D: return "r"
        case 0x09: return "t"
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x85: return "u{\(String(scalar.value, radix: 16))}"
        default: return nil
        }
    }
}

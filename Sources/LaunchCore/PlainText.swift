/// Escaping for names placed in line-oriented text reports: a name holding a line break or another
/// control character cannot start a line of its own that looks like part of the report.
public enum PlainText {
    /// How many characters of user text a message quotes (``quoted(_:limit:)``).
    public static let quotedCharacters = 80

    /// User text (an option's value, a name, a path, a line a program sent) as every message quotes
    /// it: `'text'`, on one line (``oneLine(_:)``: control characters escaped, so no forged line can
    /// follow), cut after `limit` characters with `…`. Reads at most `limit` + 1 characters of `text`.
    public static func quoted(_ text: some StringProtocol, limit: Int = quotedCharacters) -> String {
        "'" + clipped(text, limit: limit) + "'"
    }

    /// `text` on one line (``oneLine(_:)``) and cut after `limit` characters with `…`, without quotes
    /// (for a name that stands alone, such as a path at the start of a message).
    public static func clipped(_ text: some StringProtocol, limit: Int = quotedCharacters) -> String {
        let head = text.prefix(max(0, limit))
        let cut = head.endIndex < text.endIndex
        return oneLine(String(head)) + (cut ? "…" : "")
    }

    /// `text` on one line: backslash as `\\`, line feed as `\n`, carriage return as `\r`, tab as
    /// `\t`, any other control character (C0, DEL, C1, U+2028/U+2029) as `\u{hex}`.
    public static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || visibleControl($0) != nil }) else { return text }
        return ScalarEscaping.escape(text) { scalar in
            scalar == "\\" ? "\\\\" : visibleControl(scalar).map { "\\" + $0 }
        }
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

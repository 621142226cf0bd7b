import LaunchCore
/// Escaping for names placed in GitHub-flavoured Markdown (tables, headings, list items), so that a
/// name can neither break a table row nor inject markup or HTML into a job summary.
public enum MarkdownText {
    /// `text` as inert Markdown: `\`, `|`, backtick and the emphasis, link and heading characters
    /// backslash-escaped; `&`, `<`, `>` as HTML entities; line breaks, tabs and other control
    /// characters as visible `\n`, `\r`, `\t`, `\u{7f}`, so the text stays on one line.
    public static func escape(_ text: String) -> String {
        ScalarEscaping.escape(text) { scalar in
            switch scalar {
            case "\\", "|", "`", "*", "_", "[", "]", "~", "#", "!": "\\" + String(scalar)
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            // A backslash before a letter or `{` is shown as is.
            default: PlainText.visibleControl(scalar).map { "\\" + $0 }
            }
        }
    }
}

/// Wraps a line of items for an 80-column terminal at the items' separators, never inside an item.
public enum TextWrap {
    /// The width the reports are laid out for.
    public static let width = 80

    /// `items` joined by `separator` after `prefix`, as lines of at most `width` characters where the
    /// items allow it (an item longer than a line gets a line of its own); continuation lines start
    /// with `indent`. With `maximumLines`, the items that do not fit are left out and counted by
    /// `overflow(n)` at the end of the last line.
    public static func lines(
        _ items: [String], prefix: String = "", separator: String, indent: String = "  ", width: Int = width,
        maximumLines: Int = .max, overflow: (Int) -> String = { "and \($0) more" }
    ) -> [String] {
        var lines: [String] = []
        var line = prefix
        var lineHasItem = false
        let joint = String(separator.reversed().drop { $0 == " " }.reversed())
        for (i, item) in items.enumerated() {
            let last = i == items.count - 1
            let piece = last ? item : item + joint
            let onLastLine = lines.count + 1 >= maximumLines
            // On the last line allowed, an item that is not the last needs room for the overflow note too.
            let needed = line.count + (lineHasItem ? 1 : 0) + piece.count + (onLastLine && !last ? 1 + overflow(items.count - i - 1).count : 0)
            if lineHasItem, needed > width {
                if onLastLine {
                    lines.append(line + " " + overflow(items.count - i))
                    return lines
                }
                lines.append(line)
                line = indent + piece
            } else {
                line += (lineHasItem ? " " : "") + piece
            }
            lineHasItem = true
        }
        lines.append(line)
        return lines
    }
}

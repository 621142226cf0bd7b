/// Lays out rows of cells in aligned columns: the first column left-aligned, the others right-aligned,
/// and the last one (free text, such as a verdict or a description) left as it is.
public enum TextTable {
    public static func render(_ rows: [[String]], separator: String = "  ") -> String {
        guard let columns = rows.map(\.count).max(), columns > 0 else { return "" }
        let widths = (0..<columns).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { c, cell -> String in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                if c == row.count - 1 && c > 0 { return cell }
                return c == 0 ? cell + pad : pad + cell
            }
            text += cells.joined(separator: separator) + "\n"
        }
        return text
    }
}

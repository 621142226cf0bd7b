import LaunchStats

/// The diff as an aligned text table, total last.
public struct ComparisonTextTable: ComparisonExporter {
    public init() {}

    public func render(_ comparison: Comparison, context: ComparisonContext) -> String {
        let p = context.precision
        var rows = [["phase", context.baselineLabel, context.candidateLabel, "change", "%", "verdict"]]
        for row in comparison.rows + [comparison.total] {
            let name = row.path == comparison.total.path ? row.name : String(repeating: "  ", count: row.depth) + row.name
            rows.append([name, ComparisonWording.seconds(row.baselineMedian, p), ComparisonWording.seconds(row.candidateMedian, p),
                         ComparisonWording.change(row.change, p), ComparisonWording.percent(row.changePercent),
                         ComparisonWording.verdict(row)])
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { c, cell -> String in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                if c == row.count - 1 { return cell }
                return c == 0 ? cell + pad : pad + cell
            }
            text += cells.joined(separator: "  ") + "\n"
        }
        for v in context.violations { text += "over budget: \(ComparisonWording.violation(v, p))\n" }
        return text
    }
}

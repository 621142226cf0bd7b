import LaunchCore
import LaunchStats

/// The diff as an aligned text table, total last.
public struct ComparisonTextTable: ComparisonExporter {
    public init() {}

    public func render(_ comparison: Comparison, context: ComparisonContext) -> String {
        let p = context.precision
        var rows = [["phase", PlainText.oneLine(context.baselineLabel), PlainText.oneLine(context.candidateLabel), "change", "%", "verdict"]]
        for row in comparison.rows + [comparison.total] {
            let name = row.path == comparison.total.path ? PlainText.oneLine(row.name) : String(repeating: "  ", count: row.depth) + PlainText.oneLine(row.name)
            rows.append([
                name, ComparisonWording.quantity(row.baselineMedian, row.metric, p), ComparisonWording.quantity(row.candidateMedian, row.metric, p),
                ComparisonWording.change(row.change, row.metric, p), ComparisonWording.percent(row.changePercent),
                ComparisonWording.verdict(row)
            ])
        }
        var text = context.caveats.map { "caveat: \(PlainText.oneLine($0))\n" }.joined()
        text += TextTable.render(rows)
        if let line = ComparisonWording.testedTogether(comparison) { text += "\(line)\n" }
        for line in FunctionReport.attributionLines(comparison, context) { text += "functions: \(line)\n" }
        for v in context.violations { text += "over budget: \(PlainText.oneLine(ComparisonWording.violation(v, p)))\n" }
        return text
    }
}

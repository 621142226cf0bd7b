import LaunchCore
import FoundationEssentials
import LaunchStats

/// `launchprof compare`'s table, one row per strategy, tier and measure (off, on, change, verdict),
/// in each of its formats; cells are escaped for the format.
public struct StrategyComparisonReport {
    public var rows: [StrategyComparisonRow]
    /// Runs a side behind each strategy and tier.
    public var runs: Int
    public var precision: Int
    /// Lines after the text table (`--runs auto`: why each strategy's runs stopped).
    public var notes: [String] = []

    public init(rows: [StrategyComparisonRow], runs: Int, precision: Int = DurationFormat.defaultDigits) {
        self.rows = rows
        self.runs = runs
        self.precision = precision
    }

    static let header = ["strategy", "tier", "measure", "off", "on", "change", "verdict"]

    /// A measure's value as the table prints it: a time in the unit that fits, MiB or a count; `-` when not measured.
    func value(_ value: Double?, _ unit: StrategyMeasure.Unit) -> String {
        guard let value else { return "-" }
        switch unit {
        case .seconds: return DurationFormat.format(value, digits: precision)
        case .bytes: return MemoryFormat.mebibytes(value)
        case .count: return value.isFinite && abs(value) < 1e15 ? String(Int(value.rounded())) : "\(value)"
        }
    }

    /// The change as a percentage, or past +999% as a factor (`×6380`), which reads better.
    func change(_ row: StrategyComparisonRow) -> String {
        if let percent = row.changePercent, percent > 999, percent.isFinite, percent < 1e15 {
            return "×\(Int((percent / 100 + 1).rounded()))"
        }
        return ComparisonWording.percent(row.changePercent)
    }

    /// `no change: +0.4% (99% CI −1.2%…+2.0%): the whole interval inside ±5% (--threshold), …`: the
    /// verdict in the words of choosing a strategy, and why (as check says it).
    func verdict(_ row: StrategyComparisonRow) -> String {
        guard let reason = ComparisonWording.reason(row.comparison, precision) else { return row.verdict.rawValue }
        return "\(row.verdict.rawValue): \(reason)"
    }

    func cells(_ row: StrategyComparisonRow) -> [String] {
        [
            row.strategy, row.tier, row.measure.rawValue, value(row.off, row.measure.unit), value(row.on, row.measure.unit),
            change(row), verdict(row)
        ]
    }

    /// The table in `format` (one of ``OutputFormat/Subject/strategies``' formats).
    public func render(_ format: OutputFormat) throws(ExportError) -> String {
        switch format {
        case .chromeTrace, .svg:
            throw .noStrategiesForm(format: format)
        case .text:
            return TextTable.render([Self.header] + rows.map { cells($0).map(PlainText.oneLine) })
                + "(\(runs) runs a side, interleaved off and on; verdicts as check's, see docs/comparison.md)\n"
                + notes.map { PlainText.oneLine($0) + "\n" }.joined()
        case .markdown:
            var text = "| " + Self.header.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: Self.header.count) + "\n"
            for row in rows { text += "| " + cells(row).map(MarkdownText.escape).joined(separator: " | ") + " |\n" }
            return text
        case .csv:
            var text = "strategy,tier,measure,unit,off,on,change_percent,verdict\n"
            for row in rows {
                let fields = [
                    row.strategy, row.tier, row.measure.rawValue, row.measure.unit.rawValue,
                    row.off.map { "\($0)" } ?? "", row.on.map { "\($0)" } ?? "", row.changePercent.map { "\($0)" } ?? "", row.verdict.rawValue
                ]
                text += fields.map(CSVExporter.quote).joined(separator: ",") + "\n"
            }
            return text
        case .json:
            struct Document: Encodable { var runs: Int; var rows: [StrategyComparisonRow] }
            return try jsonText(Document(runs: runs, rows: rows))
        }
    }
}

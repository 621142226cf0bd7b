import LaunchCore
import LaunchStats

/// A table of statistics per phase and for the total, over every run: min, median, mean,
/// standard deviation, MAD, p90 (in the median's unit), and the runs that are outliers by the modified z-score.
public struct StatisticsTable: ResultExporter {
    public var options: ReportOptions

    public init(options: ReportOptions = ReportOptions()) {
        self.options = options
    }

    public func render(_ result: LaunchResult) -> String {
        let table = PhaseTable(result)
        var rows: [[String]] = [["phase", "min", "median", "mean", "stddev", "MAD", "p90", "outlier runs"]]
        func row(_ name: String, _ values: [Double]) {
            guard let s = Summary(values) else { return }
            let outliers = Outliers.indexes(values).map { String($0 + 1) }.joined(separator: ",")
            rows.append(
                [name]
                    + DurationFormat.format([s.min, s.median, s.mean, s.standardDeviation, s.mad, s.p90], like: s.median, digits: options.precision)
                    + [outliers.isEmpty ? "-" : outliers])
        }
        for r in table.rows { row(String(repeating: "  ", count: r.depth) + PlainText.oneLine(r.name) + (r.afterLaunch ? " (first use)" : ""), r.durations) }
        row("Total launch time", table.totals)
        var text = TextTable.render(rows)
        text += "Outliers: |modified z-score| > \(SecondsFormat.format(Outliers.threshold, precision: 1)), where M = 0.6745 (x - median) / MAD.\n"
        return text
    }
}

import FoundationEssentials
import LaunchChangePoints
import LaunchCore

/// `history trend PHASE`: for each series of one phase (per environment, tier, metric and target),
/// a text sparkline of every commit's median and a table of the newest commits, change points marked.
public struct TrendReport: Sendable {
    public struct Trend: Sendable {
        public var series: ChangePointSeries
        public var changePoints: [ChangePoint]

        public init(series: ChangePointSeries, changePoints: [ChangePoint]) {
            self.series = series
            self.changePoints = changePoints
        }
    }

    public var trends: [Trend]
    /// How many of the newest commits each table lists (1 to 10,000).
    public var rows: Int
    /// The widest sparkline, in characters: longer series are drawn a bucket's median per character.
    public var width: Int

    public init(trends: [Trend], rows: Int = 20, width: Int = 60) {
        self.trends = trends.sorted { $0.series.key < $1.series.key }
        self.rows = rows
        self.width = width
    }

    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// `values` drawn as at most `width` block characters, each the median of its bucket of values,
    /// scaled from the lowest bucket (▁) to the highest (█); a flat line of ▁ when they are all equal.
    public static func sparkline(_ values: [Double], width: Int) -> String {
        guard !values.isEmpty, width > 0 else { return "" }
        let columns = min(width, values.count)
        let buckets = (0..<columns).map { c -> Double in
            let lower = c * values.count / columns, upper = (c + 1) * values.count / columns
            let sorted = values[lower..<upper].sorted()
            return sorted[sorted.count / 2]
        }
        let low = buckets.min()!, high = buckets.max()!
        guard high > low else { return String(repeating: levels[0], count: columns) }
        return String(buckets.map { levels[min(levels.count - 1, Int((($0 - low) / (high - low)) * Double(levels.count)))] })
    }

    /// The text report: per series, its title, sparkline with the range it spans, and the table.
    public func text() -> String {
        guard !trends.isEmpty else { return "no series for this phase\n" }
        return trends.map(text).joined(separator: "\n")
    }

    func text(_ trend: Trend) -> String {
        let key = trend.series.key, values = trend.series.values, exact = trend.series.isExact
        var out = PlainText.oneLine("\(key.phase) · " + ChangePointReport.groupTitle(key, exact: exact)) + "\n"
        guard let low = values.min(), let high = values.max() else { return out + "  no commits\n" }
        let perColumn = (values.count + width - 1) / width
        out += "  " + Self.sparkline(values, width: width) + "  \(values.count) commits"
        out += (perColumn > 1 ? ", about \(perColumn) per character" : "") + "; "
        out += ChangePointReport.value(low, key) + " to " + ChangePointReport.value(high, key) + "\n"
        let steps = Dictionary(uniqueKeysWithValues: trend.changePoints.map { ($0.index, $0) })
        var table = [["commit", "median", "runs", "vs previous", "change point"]]
        for index in max(0, values.count - rows)..<values.count {
            let point = trend.series.points[index]
            let previous =
                index > 0 ? ComparisonWording.percent(ChangePoint.relativeChange(before: values[index - 1], after: values[index]).map { $0 * 100 }) : "-"
            let step = steps[index].map { step in
                let finding = ChangePointReport.Finding(key: key, exact: exact, changePoint: step)
                return "step " + ChangePointReport.change(finding) + " (p " + ChangePointReport.confidence(finding) + ")"
            }
            table.append([
                PlainText.oneLine(ChangePointReport.shortCommit(point.commit)), ChangePointReport.value(values[index], key), String(point.runCount), previous,
                step ?? ""
            ])
        }
        out += Self.indented(TextTable.render(table))
        let older = trend.changePoints.filter { $0.index < values.count - rows }
        if !older.isEmpty {
            out += "  earlier change points: "
            out +=
                older.map { step in
                    "\(ChangePointReport.shortCommit(step.commit)) "
                        + ChangePointReport.change(ChangePointReport.Finding(key: key, exact: exact, changePoint: step))
                }.joined(separator: ", ") + "\n"
        }
        return out
    }

    /// `table`'s lines indented by two spaces, without the spaces an empty last cell leaves.
    static func indented(_ table: String) -> String {
        table.split(separator: "\n").map { line in
            var line = "  " + line
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n") + "\n"
    }

    /// The JSON report: per series, its key, every commit's median and run count, and the change points' indices.
    public func json() throws(ExportError) -> String {
        struct Point: Encodable {
            var commit: String
            var median: Double
            var runs: Int
        }
        struct Series: Encodable {
            var environment, tier, metric, target, phase: String
            var exact: Bool
            var points: [Point]
            var changePoints: [Int]
        }
        let document = trends.map { trend in
            let key = trend.series.key
            return Series(
                environment: key.environment, tier: key.tier, metric: key.metric.rawValue, target: key.target.name, phase: key.phase,
                exact: trend.series.isExact,
                points: trend.series.points.map { Point(commit: $0.commit, median: $0.value, runs: $0.runCount) },
                changePoints: trend.changePoints.map(\.index))
        }
        return try jsonText(["series": document])
    }
}

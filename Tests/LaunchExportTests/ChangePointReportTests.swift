import FoundationEssentials
import LaunchCore
import Testing

@testable import LaunchChangePoints
@testable import LaunchExport

/// `history detect`'s and `history trend`'s output: the headline first, every field, escaping.
struct ChangePointReportTests {
    static func key(_ phase: String, metric: Metric = .time) -> SeriesKey {
        SeriesKey(environment: "env", tier: "host", metric: metric, target: SeriesTarget(kind: .manifest, name: "default"), phase: phase)
    }

    static let step = ChangePoint(
        index: 120, commit: "3f2a9c1d2e4f5a6b", previousCommit: "9c1d", before: Segment(median: 0.00123, points: 120),
        after: Segment(median: 0.00131, points: 180), relativeChange: 0.00131 / 0.00123 - 1, pValue: 2.1e-9)

    static func report() -> ChangePointReport {
        let exact = ChangePoint(
            index: 7, commit: "abc", previousCommit: "abb", before: Segment(median: 5_000_000, points: 7), after: Segment(median: 5_000_001, points: 3),
            relativeChange: 1 / 5_000_000.0, pValue: 0)
        return ChangePointReport(
            series: [
                SeriesChangePoints(key: key("decode | <images>"), pointCount: 300, exact: false, changePoints: [step]),
                SeriesChangePoints(key: key("layout"), pointCount: 300, exact: false, changePoints: []),
                SeriesChangePoints(key: key("layout", metric: .instructions), pointCount: 10, exact: true, changePoints: [exact])
            ], options: DetectionOptions())
    }

    @Test func textLeadsWithTheCountAndListsEachStep() {
        let text = Self.report().text()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "2 change points in 2 of 3 series")
        #expect(text.contains("3f2a9c1d2e4f ") && !text.contains("3f2a9c1d2e4f5"))
        #expect(text.contains("1.23 ms") && text.contains("1.31 ms") && text.contains("+6.5%") && text.contains("2.1e-09"))
        #expect(text.contains("5,000,000") && text.contains("5,000,001") && text.contains("+1 (+0.0%)") && text.contains("exact"))
        #expect(text.contains("default · tier host · instructions (exact) · environment env"))
    }

    @Test func valuesReadInTheirUnits() {
        #expect(ChangePointReport.value(0.00123, Self.key("a")) == "1.23 ms")
        #expect(ChangePointReport.value(5_000_001, Self.key("a", metric: .instructions)) == "5,000,001")
        #expect(ChangePointReport.value(3 * 1_048_576, Self.key("peak memory")) == MemoryFormat.mebibytes(3 * 1_048_576.0))
    }

    @Test func noStepsSaySo() {
        let report = ChangePointReport(
            series: [SeriesChangePoints(key: Self.key("a"), pointCount: 3, exact: false, changePoints: [])], options: DetectionOptions(), since: "v1")
        #expect(report.text().hasPrefix("no change points after v1 in 1 series\n"))
    }

    @Test func markdownEscapesNames() {
        let markdown = Self.report().markdown()
        #expect(markdown.hasPrefix("### 2 change points in 2 of 3 series"))
        #expect(markdown.contains("decode \\| &lt;images&gt;"))
        #expect(!markdown.contains("<images>"))
    }

    @Test func jsonHoldsEveryField() throws {
        let json = try Self.report().json()
        let value = try JSONParser.parse(Array(json.utf8))
        // Sorted by series key: the instruction series comes first, then the timed one.
        guard case .object(let document) = value, case .array(let points)? = document["changePoints"], case .object(let first)? = points.last else {
            Issue.record("not the documented shape: \(json)")
            return
        }
        #expect(points.count == 2)
        #expect(first["commit"] == .string("3f2a9c1d2e4f5a6b") && first["index"] == .number(.init(120)) && first["phase"] == .string("decode | <images>"))
        #expect(first["previousCommit"] == .string("9c1d") && first["exact"] == .bool(false))
        guard case .number(let p)? = first["pValue"], case .object(let before)? = first["before"], case .number(let median)? = before["median"] else {
            Issue.record("pValue or before missing: \(json)")
            return
        }
        #expect(p.value == 2.1e-9 && median.value == 0.00123)
        #expect(document["seriesCount"] == .number(.init(3)))
        #expect(json.contains("\"relativeChange\" : "))
    }

    /// A step from a median of 0 has no relative change: the key is written as `null`, not left out.
    @Test func jsonWritesAnUnknownRelativeChangeAsNull() throws {
        let fromZero = ChangePoint(
            index: 3, commit: "c3", previousCommit: "c2", before: Segment(median: 0, points: 3), after: Segment(median: 7, points: 3),
            relativeChange: nil, pValue: 0)
        let report = ChangePointReport(
            series: [SeriesChangePoints(key: Self.key("a", metric: .instructions), pointCount: 6, exact: true, changePoints: [fromZero])],
            options: DetectionOptions())
        let json = try report.json()
        guard case .object(let document) = try JSONParser.parse(Array(json.utf8)), case .array(let points)? = document["changePoints"],
            case .object(let point)? = points.first
        else {
            Issue.record("not the documented shape: \(json)")
            return
        }
        #expect(point["relativeChange"] == .null)
        #expect(point["index"] == .number(.init(3)) && point["exact"] == .bool(true))
    }

    @Test func sparklineSpansTheLevels() {
        #expect(TrendReport.sparkline([1, 2, 3, 4, 5, 6, 7, 8], width: 60) == "▁▂▃▄▅▆▇█")
        #expect(TrendReport.sparkline([5, 5, 5], width: 60) == "▁▁▁")
        #expect(
            TrendReport.sparkline((0..<600).map { $0 < 300 ? 1.0 : 2.0 }, width: 60) == String(repeating: "▁", count: 30) + String(repeating: "█", count: 30))
        #expect(TrendReport.sparkline([], width: 60) == "")
    }

    @Test func trendTablesTheNewestCommitsAndMarksSteps() throws {
        let points = try (0..<30).map { try MeasuredPoint(commit: "c\($0)", measured: [$0 < 20 ? 0.001 : 0.0012]) }
        let series = try ChangePointSeries(key: Self.key("layout"), points: points)
        let step = ChangePoint(
            index: 20, commit: "c20", previousCommit: "c19", before: Segment(median: 0.001, points: 20), after: Segment(median: 0.0012, points: 10),
            relativeChange: 0.2, pValue: 1e-6)
        let text = TrendReport(trends: [TrendReport.Trend(series: series, changePoints: [step])], rows: 12).text()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("layout · default · tier host · time") == true)
        #expect(lines[1].contains("30 commits") && lines[1].contains("1.00 ms to 1.20 ms"))
        #expect(lines.count == 3 + 12)
        #expect(lines.contains { $0.contains("c20") && $0.contains("step +20.0% (p 1.0e-06)") })
        #expect(!lines.contains { $0.contains("c17 ") })
    }
}

import Foundation
import LaunchChangePoints
import LaunchCore
import LaunchDashboard
import LaunchHistory
import Testing

/// The dashboard's data: series aligned on their group's commits, change points at their positions,
/// and JSON that survives a `<script>` element and parses back to the same values.
struct DashboardDataTests {
    static func hash(_ n: Int) -> String { String(repeating: "0", count: 39 - String(n).count) + "c\(n)" }

    static func series(_ phase: String, tier: String = "host", commits: [Int], value: (Int) -> Double) throws -> ChangePointSeries {
        let key = SeriesKey(environment: "e1", tier: tier, metric: .time, target: SeriesTarget(kind: .manifest, name: "default"), phase: phase)
        return try ChangePointSeries(
            key: key, points: try commits.map { n in try MeasuredPoint(commit: hash(n), measured: [value(n), value(n) * 1.001, value(n) * 0.999]) })
    }

    static func data(title: String = "t", series: [ChangePointSeries]) throws -> DashboardData {
        let order = (0..<40).map { CommitInfo(hash: hash($0), parents: $0 > 0 ? [hash($0 - 1)] : [], commitDate: "2026-11-\(10 + $0 / 10)T00:00:0\($0 % 10)Z") }
        return try DashboardData(
            title: title, source: "history.sqlite", order: order, environments: ["e1": "cpu, 2 cores"], series: series,
            detected: try ChangePointDetector().detect(series))
    }

    @Test func seriesAreAlignedOnTheGroupsCommitsWithStepsAtTheirPositions() throws {
        // decode steps +20% at commit 20; layout has no results at commits 0-4; another tier is a group of its own.
        let decode = try Self.series("decode", commits: Array(0..<30)) { $0 < 20 ? 0.001 : 0.0012 }
        let layout = try Self.series("layout", commits: Array(5..<30)) { _ in 0.002 }
        let total = try Self.series("launch total", commits: Array(0..<30)) { $0 < 20 ? 0.003 : 0.0032 }
        let low = try Self.series("decode", tier: "low", commits: [31, 33]) { _ in 0.004 }
        let data = try Self.data(series: [decode, layout, total, low])
        #expect(data.groups.map(\.tier) == ["host", "low"])
        let host = data.groups[0]
        #expect(host.series.map(\.phase) == ["launch total", "decode", "layout"])
        #expect(host.commits.map { data.commits[$0].hash } == (0..<30).map(Self.hash))
        let layoutChart = host.series[2]
        #expect(layoutChart.values.prefix(5).allSatisfy { $0 == nil } && layoutChart.values[5] == 0.002 && layoutChart.runs[5] == 3)
        let step = try #require(host.series[1].steps.first)
        #expect(host.series[1].steps.count == 1 && step.position == 20 && step.commit == Self.hash(20))
        #expect(abs(step.change! - 0.2) < 1e-9 && step.before == 0.001 && step.after == 0.0012)
        #expect(data.groups[1].commits.map { data.commits[$0].hash } == [Self.hash(31), Self.hash(33)])
        #expect(data.commits[host.commits[3]].parent == Self.hash(2) && data.commits.count == 32)
    }

    @Test func aCommitOutsideTheOrderIsRefusedByName() throws {
        let stray = try ChangePointSeries(
            key: SeriesKey(environment: "e", tier: "host", metric: .time, target: SeriesTarget(kind: .manifest, name: "t"), phase: "p"),
            points: [try MeasuredPoint(commit: "zzz", measured: [1])])
        #expect(throws: DashboardError.unorderedCommit("zzz", phase: "p")) {
            try DashboardData(title: "", source: "", order: [], environments: [:], series: [stray], detected: ChangePointDetector().detect([stray]))
        }
    }

    @Test func theEmbeddedJSONCannotCloseItsScriptAndParsesBackToTheSameText() throws {
        let hostile = "</script><script>alert(1)</script> <!-- & \u{2028}\u{2029} \"q\" \\ \n"
        let phase = try Self.series(hostile, commits: Array(0..<12)) { _ in 0.001 }
        let data = try Self.data(title: hostile, series: [phase])
        let json = DashboardJSON.encode(data)
        for forbidden in ["</", "<!--", "<", ">", "&", "\u{2028}", "\u{2029}"] { #expect(!json.contains(forbidden), "\(forbidden)") }
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(parsed["title"] as? String == hostile)
        let groups = try #require(parsed["groups"] as? [[String: Any]])
        let charts = try #require(groups.first?["series"] as? [[String: Any]])
        #expect(charts.first?["phase"] as? String == hostile)
        #expect((charts.first?["values"] as? [Double])?.count == 12)
        // The page: the title escaped as HTML text, the data block whole.
        let html = DashboardPage.html(data)
        #expect(html.contains("<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;!-- &amp;"))
        #expect(html.components(separatedBy: "</script>").count == 3)  // the data block's and the script tag's, no other
        #expect(html.contains("<script type=\"application/json\" id=\"launchprof-data\">\(json)</script>"))
    }

    @Test func numbersAreJSONAndTheEmptyHistoryIsValid() throws {
        let data = try DashboardData(title: "", source: "", order: [], environments: [:], series: [], detected: [])
        let json = DashboardJSON.encode(data)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((parsed["groups"] as? [Any])?.isEmpty == true && parsed["version"] as? Int == DashboardJSON.version)
        #expect(DashboardJSON.number(1e-7) == "1e-07" && DashboardJSON.number(.nan) == "null")
        // Whole numbers exactly (a step of one instruction shows), others to 7 significant digits.
        #expect(DashboardJSON.number(1_234_567_891) == "1234567891" && DashboardJSON.number(-3) == "-3")
        #expect(DashboardJSON.number(0.001234567891) == "0.001234568" && DashboardJSON.number(12.345678912) == "12.34568")
        #expect(
            try JSONSerialization.jsonObject(with: Data("[\(DashboardJSON.number(1e-7)),\(DashboardJSON.number(12345678901.0))]".utf8)) as? [Double] == [
                1e-7, 12345678901
            ])
    }
}

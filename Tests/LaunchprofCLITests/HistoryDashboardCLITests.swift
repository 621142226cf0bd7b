import Foundation
import LaunchCore
import Testing

/// `history dashboard` end to end on a results directory of a real git history (the page itself is
/// checked in headless Chromium by Tests/Integration/dashboard_check.py).
struct HistoryDashboardCLITests {
    @Test func writesTheSeriesAndTheDetectedStepsInHistoryOrder() throws {
        let (repository, hashes) = try HistoryDetectCLITests.history(commits: 24, step: 14)
        defer { try? FileManager.default.removeItem(atPath: repository) }
        let outcome = try CLI.run(["history", "dashboard", "--output", "site", "--title", "a <b> & c"], in: repository)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "wrote site/index.html: 24 commits, 3 charts in 1 groups, 2 change points\n")
        let html = try FileIO.readText(repository + "/site/index.html")
        #expect(html.contains("<title>a &lt;b&gt; &amp; c</title>"))
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"launchprof-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        #expect((data["title"] as? String) == "a <b> & c")
        // Commits in first-parent order, each with its parent from git.
        let commits = try #require(data["commits"] as? [[String: Any]])
        #expect(commits.map { $0["hash"] as? String } == hashes)
        #expect(commits[5]["parent"] as? String == hashes[4])
        let group = try #require((data["groups"] as? [[String: Any]])?.first)
        let series = try #require(group["series"] as? [[String: Any]])
        #expect(series.map { $0["phase"] as? String } == ["launch total", "decode", "layout"])
        let steps = series.map { ($0["steps"] as? [[String: Any]] ?? []).map { $0["commit"] as? String } }
        #expect(steps == [[hashes[14]], [hashes[14]], []])
        // Again: replaced whole; a directory of other files is refused, untouched, exit 2.
        #expect(try CLI.run(["history", "dashboard", "--output", "site", "--quiet"], in: repository).status == 0)
        #expect(try FileIO.readText(repository + "/site/index.html").contains("<title>launchprof history</title>"))
        try FileIO.writeAtomically("notes", to: repository + "/docs/notes.txt")
        let refused = try CLI.run(["history", "dashboard", "--output", "docs"], in: repository)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--output docs: is a directory of other files, not a dashboard launchprof wrote"), "\(refused.stderr)")
        #expect(FileIO.entries(of: repository + "/docs") == ["notes.txt"])
    }
}

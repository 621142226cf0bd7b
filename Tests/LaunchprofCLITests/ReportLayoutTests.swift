import Foundation
import Testing

/// The first screen of `run` (docs/report.md): one 80-column screen that says where the time goes,
/// and the analyses of `report` on `run` and `exec` directly.
@Suite(.serialized) struct ReportLayoutTests {
    /// Lines on an 80-column terminal: a longer line wraps onto more.
    func screenLines(_ text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().reduce(0) { $0 + max(1, ($1.count + 79) / 80) }
    }

    @Test func theDefaultReportFitsOneScreenAndRanksWhereTheTimeGoes() throws {
        let outcome = try CLI.run(["run", "--runs", "3", "--precision", "3", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(screenLines(outcome.stdout) <= 40, "\(outcome.stdout)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let ranking = try #require(lines.firstIndex(of: "Where the time goes (self time, share of the launch):"))
        // Five phases, largest first, each with its share and a time in the unit that fits.
        let ranked = lines[(ranking + 1)...].prefix(5)
        #expect(ranked.count == 5)
        for line in ranked { #expect(line.contains(#/^ +(\d+|<1)%  +\d+(\.\d+)? (µs|ms|s)  \S/#), "\(line)") }
        // Before the detail.
        #expect(lines.firstIndex { $0.hasPrefix("Time for ") }.map { $0 > ranking } == true)
        // No time reads as a zero: every one is in the unit that fits.
        #expect(!outcome.stdout.contains("0.00s"))
        #expect(!outcome.stdout.contains(#/: 0(\.0+)? (µs|ms|s)/#), "\(outcome.stdout)")
        // The rules ran: the report says whether any fired.
        #expect(lines.contains { $0.hasPrefix("Why it is slow:") })
    }

    @Test func allPhasesListsWhatTheDefaultFolds() throws {
        let snapshot = CLI.temporaryPath("s.png")
        let folded = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--output", CLI.temporaryPath("r.json"), "--snapshot", snapshot])
        #expect(folded.status == 0, "\(folded.stderr)")
        let line = try #require(folded.stdout.split(separator: "\n").first { $0.hasPrefix("… ") })
        let count = try #require(line.firstMatch(of: #/^… (\d+) more phases? under [1235]% of the launch: /#).flatMap { Int($0.1) })
        let all = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--all-phases", "--snapshot", snapshot])
        #expect(!all.stdout.contains("% of the launch: "))
        let timeLines = { (text: String) in text.split(separator: "\n").filter { $0.contains("Time for ") }.count }
        // Runs differ a little, so a phase near the fold may fall either side: about `count` more lines.
        #expect(timeLines(all.stdout) >= timeLines(folded.stdout) + count - 2, "\(folded.stdout)\n\(all.stdout)")
    }

    @Test func blameAndCriticalPathPrintAfterTheReportOfRunAndExec() throws {
        let run = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--blame", "--critical-path", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(run.status == 0, "\(run.stderr)")
        let total = try #require(run.stdout.range(of: "Total launch time: "))
        let blame = try #require(run.stdout.range(of: "self  inclusive  phase\n"))
        let critical = try #require(run.stdout.range(of: "\nCritical path of run 1 (total "))
        #expect(total.lowerBound < blame.lowerBound && blame.lowerBound < critical.lowerBound)
        // A program that reports no phases has nothing to blame, and says so.
        let exec = try CLI.run(["exec", "--runs", "2", "--blame", "--", "/bin/true"])
        #expect(exec.status == 0, "\(exec.stderr)")
        #expect(exec.stdout.hasSuffix("\nNo phases to blame: the runs reported none (docs/protocol.md).\n"), "\(exec.stdout)")
        let json = try CLI.run(["run", "--runs", "1", "--blame", "--format", "json"])
        #expect(json.status == 2)
        #expect(json.stderr.contains("--blame and --critical-path print after the text report"))
    }
}

import Foundation
import Testing
@testable import LaunchExport
import LaunchCore
import LaunchprofTestSupport

/// Instruction counts appear in every export where times do, and only when they were counted.
@Suite struct InstructionExportTests {
    @Test func csvHasAnInstructionsColumnOnlyWithCounts() throws {
        let counted = CSVExporter().render(SampleResult.instructions()).split(separator: "\n")
        #expect(counted.first == "run,phase,parent,thread,start,duration,rss,instructions")
        #expect(counted.contains { $0.hasPrefix("1,drawing,,") && $0.hasSuffix(",1430000000") })
        let timed = CSVExporter().render(SampleResult.classic()).split(separator: "\n")
        #expect(timed.first == "run,phase,parent,thread,start,duration,rss")
    }

    @Test func markdownHasAnInstructionsColumnOnlyWithCounts() {
        let counted = MarkdownSummaryExporter().render(SampleResult.instructions())
        #expect(counted.contains("| Phase | Median | MAD | Min | p90 | Instructions |"))
        #expect(counted.contains("| drawing | 1.43 s | 0.00 s | 1.43 s | 1.43 s | 1.4 G |"))
        // Every row has the header's number of cells.
        for line in counted.split(separator: "\n") where line.hasPrefix("|") {
            #expect(line.split(separator: "|", omittingEmptySubsequences: false).count == 8, "\(line)")
        }
        #expect(!MarkdownSummaryExporter().render(SampleResult.classic()).contains("Instructions"))
    }

    @Test func chromeTraceCarriesCountsAsArgsAndACounterTrack() throws {
        let text = try ChromeTraceExporter().render(SampleResult.instructions(runs: 1))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        let drawing = try #require(events.first { $0["name"] as? String == "drawing" && $0["ph"] as? String == "X" })
        #expect((drawing["args"] as? [String: Any])?["instructions"] as? Int == 1_430_000_000)
        let counters = events.filter { $0["name"] as? String == "instructions" && $0["ph"] as? String == "C" }
        #expect(counters.count == 4, "one per top-level launch phase")
        let last = (counters.last?["args"] as? [String: Any])?["instructions"] as? Int
        #expect(last == 890_000_000 + 910_000_000 + 45_000 + 1_430_000_000)
        let timed = try ChromeTraceExporter().render(SampleResult.classic())
        #expect(!timed.contains("instructions"))
    }
}

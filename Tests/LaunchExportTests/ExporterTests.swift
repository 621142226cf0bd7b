import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LaunchExport
import LaunchCore
import LaunchprofTestSupport

@Suite struct ExporterTests {
    /// The classic result with memory samples and a comma in a name, to exercise quoting.
    func result() -> LaunchResult {
        var result = SampleResult.classic(runs: 2)
        result.runs[0].phases[1].residentBytes = 1_048_576
        result.runs[0].phases[2].name = "portrait, @1x"
        result.runs[1].phases[2].name = "portrait, @1x"
        return result
    }

    @Test func csvRowsExactly() {
        let lines = CSVExporter().render(result()).split(separator: "\n").map(String.init)
        #expect(lines.count == 15)
        #expect(lines[0] == "run,phase,parent,thread,start,duration,rss")
        #expect(lines[1] == "1,Init,,0,0.000000,0.890000,")
        #expect(lines[2] == "1,building layouts,,0,0.890000,0.910000,1048576")
        #expect(lines[3] == "1,\"portrait, @1x\",building layouts,0,0.900000,0.500000,")
        #expect(lines[6] == "1,loading conversions,,0,4.000000,0.123000,")
        #expect(lines[7] == "1,Time to first frame,,0,0,3.680000,")
        #expect(lines[8] == "2,Init,,0,0.000000,0.900000,")
    }

    @Test func markdownSummaryTable() {
        let text = MarkdownSummaryExporter().render(SampleResult.classic(runs: 3))
        #expect(
            text == """
                ### Launch: default (3 runs)

                | Phase | Median | MAD | Min | p90 |
                |---|---:|---:|---:|---:|
                | Init | 900 ms | 10 ms | 890 ms | 908 ms |
                | building layouts | 910 ms | 0 ms | 910 ms | 910 ms |
                | &nbsp;&nbsp;portrait | 500 ms | 0 ms | 500 ms | 500 ms |
                | loading themes | 450 ms | 0 ms | 450 ms | 450 ms |
                | drawing | 1.43 s | 0.00 s | 1.43 s | 1.43 s |
                | loading conversions | deferred | | | |
                | loading constants | deferred | | | |
                | **Total launch time** | 3.69 s | 0.01 s | 3.68 s | 3.70 s |
                | **Time to first frame** | 3.68 s | 0.00 s | 3.68 s | 3.68 s |

                """)
    }

    @Test func chromeTraceParsesBackWithEveryEvent() throws {
        let text = try ChromeTraceExporter().render(result())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(complete.count == 12)
        let drawing = try #require(complete.first { $0["name"] as? String == "drawing" && $0["pid"] as? Int == 1 })
        #expect(drawing["ts"] as? Double == 2_250_000)
        #expect(drawing["dur"] as? Double == 1_430_000)
        #expect(drawing["tid"] as? Int == 0)
        #expect(drawing["cat"] as? String == "draw")
        #expect(events.filter { $0["ph"] as? String == "i" }.map { $0["name"] as? String } == ["first frame", "first frame"])
        #expect(events.filter { $0["ph"] as? String == "C" }.count == 1)
        let processNames = events.filter { $0["name"] as? String == "process_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processNames == ["run 1 (pid 100)", "run 2 (pid 101)"])
        #expect(events.contains { $0["name"] as? String == "thread_name" && ($0["args"] as? [String: Any])?["name"] as? String == "main" })
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["manifest"] as? String == "default")
        #expect((metadata["host"] as? String)?.hasPrefix("Test CPU") == true)
        #expect(object["displayTimeUnit"] as? String == "ms")
    }

    @Test func chromeTraceSelectsOneRun() throws {
        let text = try ChromeTraceExporter(run: 2).render(result())
        #expect(text.contains("\"pid\":2"))
        #expect(!text.contains("\"pid\":1,"))
    }

    @Test func svgTimelineHasLanesBarsLabelsAxisMarksAndCriticalPath() throws {
        let svg = try SVGTimelineExporter().render(SampleResult.classic(runs: 3))
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200.0\""))
        // The median of totals 3.68, 3.69, 3.70 is run 2.
        #expect(svg.contains("launchprof: default, run 2 (the median of 3 runs), total 3.69 s"))
        #expect(svg.contains(">main thread</text>"))
        for label in ["Init 900 ms", "building layouts 910 ms", "portrait 500 ms", "drawing 1.43 s", "loading conversions 123 ms (after launch)"] {
            #expect(svg.contains(label), "\(label)")
        }
        #expect(svg.components(separatedBy: "<rect x=").count - 1 == 6 + 6)  // 6 bars + 5 legend swatches + critical legend
        // In run 2 Init (0.90 s) overlaps building layouts (from 0.89 s), so the chain is layouts, themes,
        // drawing; plus the legend swatch.
        #expect(svg.components(separatedBy: "stroke=\"#c62828\" stroke-width=\"2.5\"").count - 1 == 3 + 1)
        #expect(svg.contains(">first frame 3.68 s</text>"))
        #expect(svg.contains(">launched 3.69 s</text>"))
        #expect(svg.contains(">0 s</text>"))
        #expect(svg.contains("deferred (lazy, not run at launch): loading conversions, loading constants"))
        let parser = XMLParserCheck(svg)
        #expect(parser.wellFormed)
    }

    @Test func svgRejectsAMissingRun() {
        #expect(throws: ExportError.self) { try SVGTimelineExporter(run: 9).render(SampleResult.classic()) }
    }

    @Test func tickStepsAreRound() {
        #expect(SVGTimelineExporter.tickStep(0.057) == 0.01)
        #expect(SVGTimelineExporter.tickStep(3.69) == 0.5)
        #expect(SVGTimelineExporter.tickStep(0.2) == 0.02)
    }

    @Test func criticalPathChainsTheTopLevelPhases() throws {
        let text = try CriticalPathReport().render(SampleResult.classic())
        #expect(
            text == """
                Critical path of run 1 (total 3.68 s): each phase waited for the one above it.
                Init @0 s +890 ms
                └─ building layouts @890 ms +910 ms
                  └─ loading themes @1.80 s +450 ms
                    └─ drawing @2.25 s +1.43 s

                """)
    }

    @Test func criticalPathSkipsAConcurrentPhaseThatEndedEarlier() throws {
        let run = RunRecord(
            total: 1.0,
            phases: [
                PhaseRecord(name: "a", start: 0, duration: 0.2),
                PhaseRecord(name: "background decode", start: 0.2, duration: 0.3, thread: 1),
                PhaseRecord(name: "b", start: 0.2, duration: 0.5),
                PhaseRecord(name: "c", start: 0.7, duration: 0.3)
            ])
        var result = SampleResult.classic()
        result.runs = [run]
        let text = try CriticalPathReport().render(result)
        #expect(text.contains("a @0 s"))
        #expect(text.contains("└─ b @200 ms +500 ms"))
        #expect(text.contains("└─ c @700 ms +300 ms"))
        #expect(!text.contains("background decode"))
    }

    @Test func blameSortsBySelfTime() {
        let text = BlameReport().render(SampleResult.classic())
        #expect(
            text == """
                  self  inclusive  phase
                1.43 s     1.43 s  drawing
                890 ms     890 ms  Init
                500 ms     500 ms  building layouts/portrait
                450 ms     450 ms  loading themes
                410 ms     910 ms  building layouts
                123 ms     123 ms  loading conversions

                """)
    }
}

/// Whether a string is well-formed XML, by Foundation's parser.
struct XMLParserCheck {
    let wellFormed: Bool

    init(_ text: String) {
        #if canImport(FoundationXML)
        wellFormed = FoundationXML.XMLParser(data: Data(text.utf8)).parse()
        #else
        wellFormed = XMLParser(data: Data(text.utf8)).parse()
        #endif
    }
}

import Testing
@testable import LaunchExport
import LaunchCore

/// A result file is user input: mutated ones are refused with a reason or render in every format,
/// never crash.
@Suite struct ResultRobustnessTests {
    @Test func mutatedResultsAreRefusedOrRenderEverywhere() throws {
        let original = try ResultFile.encode(SampleResult.classic(runs: 3))
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let tokens = ["-1", "99", "1e308", "-1e308", "null", "\"\"", "[]", "{}", "0", "2"]
        var rendered = 0
        for _ in 0..<400 {
            var text = String(decoding: original, as: UTF8.self)
            // Replace one number in the document with a hostile token.
            let numbers = text.indices.filter { text[$0].isNumber && (text[text.index(before: $0)] == " ") }
            guard !numbers.isEmpty else { break }
            let at = numbers[next() % numbers.count]
            let end = text[at...].firstIndex { !($0.isNumber || $0 == "." || $0 == "e" || $0 == "-") } ?? text.endIndex
            text.replaceSubrange(at..<end, with: tokens[next() % tokens.count])
            guard let result = try? ResultFile.decode(Array(text.utf8), path: "r.json") else { continue }
            rendered += 1
            let exporters: [any ResultExporter] = [TextReportExporter(), JSONResultExporter(), CSVExporter(), MarkdownSummaryExporter(),
                                                   ChromeTraceExporter(), SVGTimelineExporter(), CriticalPathReport(), BlameReport(),
                                                   StatisticsTable()]
            for exporter in exporters { _ = try? exporter.render(result) }
        }
        #expect(rendered > 50)
    }

    @Test func aParentAfterItsChildIsRefused() throws {
        var result = SampleResult.classic()
        result.runs[0].phases[2].parent = 5
        do {
            _ = try ResultFile.decode(try ResultFile.encode(result), path: "r.json")
            Issue.record("a forward parent must be refused")
        } catch {
            #expect("\(error)" == "r.json: malformed result: runs[0].phases[2].parent: 5 is not an earlier phase of the run")
        }
    }
}

import Testing
@testable import LaunchExport
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
import LaunchStats

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
            let decoded = try? ResultFile.decode(Array(text.utf8), path: "r.json")
            let tabulated = try? ResultTableReader.tabulate(Array(text.utf8), path: "r.json")
            // Both readers accept and refuse the same files, and agree on what they read.
            #expect((decoded == nil) == (tabulated == nil), "\(text)")
            guard let result = decoded else { continue }
            #expect(tabulated == TabulatedResult(result))
            rendered += 1
            let exporters: [any ResultExporter] = [
                TextReportExporter(), JSONResultExporter(), CSVExporter(), MarkdownSummaryExporter(),
                ChromeTraceExporter(), SVGTimelineExporter(), CriticalPathReport(), BlameReport(),
                StatisticsTable()
            ]
            for exporter in exporters { _ = try? exporter.render(result) }
        }
        #expect(rendered > 50)
    }

    /// Byte-level mutations (structure, quotes, escapes, control bytes, truncation): the streaming
    /// reader and the Codable reader accept and refuse the same documents.
    @Test func bothReadersAgreeOnMutatedBytes() throws {
        let original = try ResultFile.encode(SampleResult.counted(runs: 2))
        var state: UInt64 = 11
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let replacements: [[UInt8]] =
            ["{", "}", "[", "]", ",", ":", "\"", "\\", "\\u12", "\\ud800", "x", " ", "-", "0", ".", "e5", "null", "1e400"]
            .map { Array($0.utf8) } + [[0x01], [0xFF], [0xC3], [0xED, 0xA0, 0x80]]
        var accepted = 0
        for round in 0..<600 {
            var bytes = original
            let at = next() % bytes.count
            if round % 10 == 9 {
                bytes.removeSubrange(at...)
            } else {
                let length = next() % 3
                bytes.replaceSubrange(at..<min(bytes.count, at + length), with: replacements[next() % replacements.count])
            }
            let decoded = try? ResultFile.decode(bytes, path: "m.json")
            let tabulated = try? ResultTableReader.tabulate(bytes, path: "m.json")
            #expect((decoded == nil) == (tabulated == nil), "\(String(decoding: bytes, as: UTF8.self))")
            if let decoded {
                accepted += 1
                #expect(tabulated == TabulatedResult(decoded))
            }
        }
        #expect(accepted > 20)
    }

    @Test func aParentAfterItsChildIsRefused() throws {
        var result = SampleResult.classic()
        result.runs[0].phases[2].parent = 5
        do {
            _ = try ResultFile.decode(try ResultFile.encode(result), path: "r.json")
            Issue.record("a forward parent must be refused")
        } catch {
            #expect("\(error)".hasPrefix("r.json: malformed result: runs[0].phases[2].parent: 5 is not an earlier phase of the run"))
        }
    }
}

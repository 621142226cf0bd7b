import Testing
@testable import LaunchExport
import LaunchCore
import LaunchprofTestSupport

@Suite struct TextReportTests {
    @Test func classicLinesExactly() {
        let text = TextReportExporter().render(SampleResult.classic())
        #expect(
            text == """
                Where the time goes (self time, share of the launch):
                   39%  1.43 s  drawing
                   24%  890 ms  Init
                   14%  500 ms  building layouts/portrait
                   12%  450 ms  loading themes
                   11%  410 ms  building layouts
                Time for Init: 890 ms
                Time for building layouts: 910 ms
                  Time for portrait: 500 ms
                Time for loading themes: 450 ms
                Time for drawing: 1.43 s
                Time for loading conversions: deferred, 123 ms on first use
                Time for loading constants: deferred
                Total launch time: 3.68 s
                Time to first frame: 3.68 s

                """)
    }

    @Test func marksThatSomeRunsMissSayInHowManyRunsTheyCame() {
        var result = SampleResult.classic(runs: 3)
        result.runs[1].marks = []
        result.runs[2].marks.append(MarkRecord(name: "interactive", time: 3.9))
        let lines = TextReportExporter().render(result).split(separator: "\n").map(String.init)
        #expect(lines.suffix(2) == ["Time to first frame: 3.68 s ± 0.00 s (in 2 of 3 runs)", "Time to interactive: 3.90 s ± 0.00 s (in 1 of 3 runs)"])
    }

    @Test func instructionCountsReplaceValgrindsTimes() {
        let text = TextReportExporter().render(SampleResult.instructions())
        #expect(
            text == """
                (2 runs: median instruction counts; times under Valgrind are not shown)
                Instructions for Init: 890.0 M
                Instructions for building layouts: 910.0 M
                  Instructions for portrait: 500.0 M
                Instructions for loading themes: 45.0 K
                Instructions for drawing: 1.4 G
                Instructions for loading conversions: deferred, 123.0 K on first use
                Instructions for loading constants: deferred
                Total launch instructions: 3.3 G

                """)
        // Runs that disagree by more than 0.1% say so next to the median.
        let drifting = TextReportExporter().render(SampleResult.instructions(drift: 10_000_000))
        #expect(drifting.contains("Instructions for Init: 895.0 M (runs differ by 1.12%)"))
    }

    @Test func precisionSetsSignificantDigits() {
        let text = TextReportExporter(options: ReportOptions(precision: 5)).render(SampleResult.classic())
        #expect(text.contains("\nTime for Init: 890.00 ms\n"))
        #expect(text.hasSuffix("Total launch time: 3.6800 s\nTime to first frame: 3.6800 s\n"))
        let coarse = TextReportExporter(options: ReportOptions(precision: 1)).render(SampleResult.classic())
        #expect(coarse.contains("\nTime for Init: 890 ms\n"))
        #expect(coarse.contains("\nTotal launch time: 4 s\n"))
    }

    @Test func severalRunsShowMedianAndSpread() {
        let text = TextReportExporter().render(SampleResult.classic(runs: 3))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[6] == "(3 runs: median ± median absolute deviation)")
        // Init: 0.89, 0.90, 0.91 -> median 0.90, MAD 0.01, in the median's unit.
        #expect(lines[7] == "Time for Init: 900 ms ± 10 ms")
        #expect(lines.suffix(2) == ["Total launch time: 3.69 s ± 0.01 s", "Time to first frame: 3.68 s ± 0.00 s"])
    }

    @Test func countersLineGroupsThousands() {
        #expect(TextReportExporter().countersLine(SampleResult.classic()) == "19 keys laid out · 1,234,567 pixels drawn")
    }

    /// A launch of 100 ms with many small phases: 2 phases of 40 ms, each with 5 children of
    /// 0.5 ms (0.5% each) and one of 30 ms, and 3 top-level phases of 0.3 ms.
    static func manySmallPhases() -> LaunchResult {
        var phases: [PhaseRecord] = []
        var start = 0.0
        for big in ["decoding", "drawing"] {
            let parent = phases.count
            phases.append(PhaseRecord(name: big, kind: .cpu, start: start, duration: 0.040))
            for i in 0..<5 {
                phases.append(PhaseRecord(name: "small \(i)", kind: .cpu, start: start, duration: 0.0005, depth: 1, parent: parent))
                start += 0.0005
            }
            phases.append(PhaseRecord(name: "large", kind: .cpu, start: start, duration: 0.030, depth: 1, parent: parent))
            start += 0.0375
        }
        for i in 0..<3 {
            phases.append(PhaseRecord(name: "tiny \(i)", kind: .cpu, start: start, duration: 0.0003))
            start += 0.0003
        }
        let run = RunRecord(index: 1, total: 0.1, phases: phases)
        return LaunchResult(date: "", manifest: ManifestInfo(name: "small", path: "m", sha256: ""), host: SampleResult.host, runs: [run])
    }

    @Test func phasesUnderOnePercentFoldIntoOneLine() {
        let lines = TextReportExporter().render(Self.manySmallPhases()).split(separator: "\n").map(String.init)
        // 10 children of 0.5 ms and 3 phases of 0.3 ms: 13 phases, 5.9 ms.
        #expect(lines.contains("… 13 more phases under 1% of the launch: 5.90 ms (--all-phases lists them)"))
        #expect(!lines.contains { $0.contains("Time for small") || $0.contains("Time for tiny") })
        #expect(lines.contains("  Time for large: 30.0 ms"))
        // The folded line comes right before the total.
        let folded = lines.firstIndex { $0.hasPrefix("… 13 more") }
        #expect(folded.map { lines[$0 + 1] } == "Total launch time: 100 ms")
        let all = TextReportExporter(options: ReportOptions(allPhases: true)).render(Self.manySmallPhases())
        #expect(all.contains("  Time for small 4: 500 µs\n"))
        #expect(all.contains("\nTime for tiny 2: 300 µs\n"))
        #expect(!all.contains("more phases under"))
    }

    @Test func aFoldedPhaseTakesItsChildrenWithIt() {
        // A 0.5 ms phase with a 0.2 ms child: two phases folded, counted once in the time.
        let run = RunRecord(
            index: 1, total: 0.1,
            phases: [
                PhaseRecord(name: "work", kind: .cpu, start: 0, duration: 0.0995),
                PhaseRecord(name: "setup", kind: .cpu, start: 0.0995, duration: 0.0005),
                PhaseRecord(name: "inner", kind: .cpu, start: 0.0995, duration: 0.0002, depth: 1, parent: 1)
            ])
        let result = LaunchResult(date: "", manifest: ManifestInfo(name: "x", path: "m", sha256: ""), host: SampleResult.host, runs: [run])
        let text = TextReportExporter().render(result)
        #expect(text.contains("… 2 more phases under 1% of the launch: 500 µs (--all-phases lists them)\n"))
    }

    @Test func whereTheTimeGoesRanksSelfTimeWithItsShare() {
        let lines = TextReportExporter().render(Self.manySmallPhases()).split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(6)) == [
                "Where the time goes (self time, share of the launch):",
                // Both `large` children: 30 ms of 100 ms.
                "   30%  30.0 ms  decoding/large",
                "   30%  30.0 ms  drawing/large",
                // The parents' own time: 40 − 30 − 5 × 0.5 ms.
                "    8%  7.50 ms  decoding",
                "    8%  7.50 ms  drawing",
                // 0.5%: under 1%, as the folded phases are.
                "   <1%   500 µs  decoding/small 0"
            ])
        // Fewer than 3 launch phases: nothing to rank.
        let one = LaunchResult(
            date: "", manifest: ManifestInfo(name: "x", path: "m", sha256: ""), host: SampleResult.host,
            runs: [RunRecord(index: 1, total: 0.01, phases: [PhaseRecord(name: "process start", kind: .cpu, start: 0, duration: 0.01)])])
        #expect(!TextReportExporter().render(one).contains("Where the time goes"))
    }

    @Test func countsFitOneLineOf80Columns() {
        var result = SampleResult.classic()
        result.runs[0].counters = (1...20).map { CounterRecord(name: "things counted \($0)", value: $0 * 1000) }
        let lines = TextReportExporter().countersLines(result)
        #expect(lines.count == 1)
        #expect(lines[0].count <= 80)
        // The second counter and the note would pass 80 columns: the note goes with the first.
        #expect(lines[0] == "Counts: 1,000 things counted 1 · and 19 more (--all-phases)")
        let all = TextReportExporter(options: ReportOptions(allPhases: true)).countersLines(result)
        #expect(all.count > 1 && all.allSatisfy { $0.count <= 80 })
        #expect(all.joined(separator: " ").contains("20,000 things counted 20"))
        result.runs[0].counters = (1...3).map { CounterRecord(name: "things \($0)", value: $0) }
        #expect(TextReportExporter().countersLines(result) == ["Counts: 1 things 1 · 2 things 2 · 3 things 3"])
    }

    @Test func theHeaderGivesTheClocksATiersRunsWereStretchedAt() {
        var result = SampleResult.classic(runs: 3)
        let tier = TierInfo(name: "iphone-3gs", factors: [.cpu: 40], memoryBudget: nil, hostReference: [:])
        result.configuration = RunConfiguration(runs: 3, warmup: 0, mode: .warm, timeout: 60, tier: tier)
        #expect(!TextReportExporter().header(result).contains("stretched at"))
        result.runs[0].clockGigahertz = 3.194
        result.runs[2].clockGigahertz = 3.2261
        #expect(TextReportExporter().header(result).contains("(cpu ×40.0), runs stretched at 3.19–3.23 GHz, on "))
        result.runs[2].clockGigahertz = 3.191
        #expect(TextReportExporter.runClocksPhrase(result.runs) == "runs stretched at 3.19 GHz")
    }

    @Test func theHeaderWrapsAtItsCommas() {
        var result = SampleResult.classic()
        result.configuration = RunConfiguration(runs: 10, warmup: 1, mode: .warm, timeout: 60)
        let lines = TextReportExporter().headerLines(result)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.count >= 2)
        // Nothing lost: the continuation lines are the rest of the header.
        #expect(lines.map { String($0.drop { $0 == " " }) }.joined(separator: " ") == TextReportExporter().header(result))
    }

    @Test(arguments: [
        (0.8912, 2, "0.89"), (0.895, 2, "0.90"), (3.68, 2, "3.68"), (0.0, 2, "0.00"), (12.5, 0, "13"),
        (0.0004, 3, "0.000"), (1.23456789, 6, "1.234568"), (-0.25, 2, "-0.25")
    ])
    func secondsFormat(value: Double, precision: Int, expected: String) {
        #expect(SecondsFormat.format(value, precision: precision) == expected)
    }
}

import Testing
@testable import LaunchExport
import LaunchCore

@Suite struct TextReportTests {
    @Test func classicLinesExactly() {
        let text = TextReportExporter().render(SampleResult.classic())
        #expect(
            text == """
                Time for Init: 0.89s
                Time for building layouts: 0.91s
                  Time for portrait: 0.50s
                Time for loading themes: 0.45s
                Time for drawing: 1.43s
                Time for loading conversions: deferred, 0.12s on first use
                Time for loading constants: deferred
                Total launch time: 3.68s
                Time to first frame: 3.68s

                """)
    }

    @Test func marksThatSomeRunsMissSayInHowManyRunsTheyCame() {
        var result = SampleResult.classic(runs: 3)
        result.runs[1].marks = []
        result.runs[2].marks.append(MarkRecord(name: "interactive", time: 3.9))
        let lines = TextReportExporter().render(result).split(separator: "\n").map(String.init)
        #expect(lines.suffix(2) == ["Time to first frame: 3.68s ± 0.00s (in 2 of 3 runs)", "Time to interactive: 3.90s ± 0.00s (in 1 of 3 runs)"])
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

    @Test func precisionAddsDecimals() {
        let text = TextReportExporter(options: ReportOptions(precision: 3)).render(SampleResult.classic())
        #expect(text.hasPrefix("Time for Init: 0.890s\n"))
        #expect(text.hasSuffix("Total launch time: 3.680s\nTime to first frame: 3.680s\n"))
    }

    @Test func severalRunsShowMedianAndSpread() {
        let text = TextReportExporter().render(SampleResult.classic(runs: 3))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "(3 runs: median ± median absolute deviation)")
        // Init: 0.89, 0.90, 0.91 -> median 0.90, MAD 0.01.
        #expect(lines[1] == "Time for Init: 0.90s ± 0.01s")
        #expect(lines.suffix(2) == ["Total launch time: 3.69s ± 0.01s", "Time to first frame: 3.68s ± 0.00s"])
    }

    @Test func countersLineGroupsThousands() {
        #expect(TextReportExporter().countersLine(SampleResult.classic()) == "19 keys laid out · 1,234,567 pixels drawn")
    }

    @Test(arguments: [
        (0.8912, 2, "0.89"), (0.895, 2, "0.90"), (3.68, 2, "3.68"), (0.0, 2, "0.00"), (12.5, 0, "13"),
        (0.0004, 3, "0.000"), (1.23456789, 6, "1.234568"), (-0.25, 2, "-0.25")
    ])
    func secondsFormat(value: Double, precision: Int, expected: String) {
        #expect(SecondsFormat.format(value, precision: precision) == expected)
    }
}

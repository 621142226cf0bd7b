import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LaunchExport
import LaunchCore
import LaunchprofTestSupport

/// The SVG time axis and every Double → Int conversion in the exporters, for spans and values no
/// real launch has: the exporter terminates and writes well-formed SVG with finite coordinates.
@Suite struct SVGAxisTests {
    static let spans: [Double] = [
        .nan, .infinity, -.infinity, 0, -1, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-6, 1e300,
        .greatestFiniteMagnitude
    ]

    @Test(arguments: spans) func tickStepIsFiniteAndPositive(span: Double) {
        let step = SVGTimelineExporter.tickStep(span)
        #expect(step.isFinite && step > 0)
        if span.isFinite && span > 1e-300 { #expect(span / step <= 10.0001 && span / step >= 1) }
    }

    func result(end: Double, markTime: Double = 0.5) -> LaunchResult {
        let run = RunRecord(
            index: 1, total: end,
            phases: [
                PhaseRecord(name: "a", kind: .cpu, start: 0, duration: 0.5),
                PhaseRecord(name: "b", kind: .io, start: 0.5, duration: end - 0.5)
            ], marks: [MarkRecord(name: "m", time: markTime)])
        return LaunchResult(date: "", manifest: ManifestInfo(name: "x", path: "x", sha256: ""), host: SampleResult.host, runs: [run])
    }

    @Test(arguments: [Double.nan, .infinity, 0, 1e300, .greatestFiniteMagnitude, 7.3])
    func svgOfAnySpanTerminatesWellFormed(end: Double) throws {
        let svg = try SVGTimelineExporter().render(result(end: end, markTime: end))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse())
        let ticks = svg.components(separatedBy: "class=\"tick\"").count - 1
        #expect(ticks >= 1 && ticks <= SVGTimelineExporter.maxTicks + 1)
        for attribute in ["x=\"", "x1=\"", "x2=\"", "width=\""] {
            #expect(!svg.contains(attribute + "nan") && !svg.contains(attribute + "inf") && !svg.contains(attribute + "-inf"))
        }
    }

    @Test func memoryOfExtremeByteCountsFormatsWithoutTrapping() {
        #expect(MemoryFormat.change(Int.min).hasPrefix("-"))
        #expect(MemoryFormat.mebibytes(Double(Int.max)).hasSuffix(" MiB"))
        var result = SampleResult.classic(runs: 1)
        result.runs[0].phases[0].residentBytes = Int.max
        result.runs[0].phases[0].residentGrowth = Int.min
        result.runs[0].peakResidentBytes = Int.max
        let text = TextReportExporter(options: ReportOptions(precision: 2, showMemory: true)).render(result)
        #expect(text.contains("[rss 8796093022208.0 MiB, -8796093022208.0 MiB]"))
        #expect(text.contains("[peak 8796093022208.0 MiB]"))
    }
}

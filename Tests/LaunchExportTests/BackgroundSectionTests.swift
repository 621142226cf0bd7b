import Testing
@testable import LaunchExport
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
import LaunchStats

/// The background step's phases: flagged in the result, read the same by both readers, and printed
/// in their own section below the launch total.
@Suite struct BackgroundSectionTests {
    func result() -> LaunchResult {
        var result = SampleResult.classic(runs: 2)
        for i in result.runs.indices {
            let start = result.runs[i].total + 0.1
            let parent = result.runs[i].phases.count
            result.runs[i].phases.append(PhaseRecord(name: "entering background", kind: .io, start: start, duration: 0.21, afterLaunch: true, background: true))
            result.runs[i].phases.append(
                PhaseRecord(
                    name: "encoding PNG", kind: .cpu, start: start, duration: 0.2, depth: 1, parent: parent,
                    afterLaunch: true, background: true))
        }
        return result
    }

    @Test func bothReadersFlagTheBackgroundRows() throws {
        let bytes = try ResultFile.encode(result())
        let fast = try ResultTableReader.tabulate(bytes, path: "bg.json")
        #expect(fast == TabulatedResult(try ResultFile.decode(bytes, path: "bg.json")))
        #expect(fast.table.rows.filter(\.inBackground).map(\.path) == ["entering background", "entering background/encoding PNG"])
    }

    @Test func theTextReportPrintsTheSectionBelowTheTotalAndOutsideIt() {
        let lines = TextReportExporter().render(result()).split(separator: "\n").map(String.init)
        #expect(lines.suffix(4).first?.hasPrefix("Total launch time: ") == true)
        #expect(
            Array(lines.suffix(3)) == [
                "Time to first frame: 3.68 s ± 0.00 s",
                "Time for entering background: 210 ms ± 0 ms", "  Time for encoding PNG: 200 ms ± 0 ms"
            ])
    }
}

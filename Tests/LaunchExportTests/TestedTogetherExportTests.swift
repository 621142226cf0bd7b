import Foundation
import Testing
@testable import LaunchExport
import LaunchCore
import LaunchStats

/// Every comparison format says when the rows were judged together (a device tier), and none says
/// it when each row was judged alone.
@Suite struct TestedTogetherExportTests {
    static func comparison(family: FamilyCorrection) -> Comparison {
        func result(_ scale: Double) -> LaunchResult {
            let runs = (0..<10).map { i -> RunRecord in
                let init0 = 0.1 + Double(i) * 0.0001, drawing = (0.2 + Double(i) * 0.0001) * scale
                return RunRecord(
                    index: i + 1, total: init0 + drawing,
                    phases: [PhaseRecord(name: "Init", start: 0, duration: init0), PhaseRecord(name: "drawing", start: init0, duration: drawing)])
            }
            return LaunchResult(
                date: "", manifest: ManifestInfo(name: "default", path: "m", sha256: ""),
                host: HostInfo(cpuModel: "cpu", cores: 2, os: "Linux", architecture: "x86_64", swiftVersion: "6.3", hostname: "h"), runs: runs)
        }
        var thresholds = Thresholds()
        thresholds.family = family
        return Comparison(baseline: result(1), candidate: result(1.2), thresholds: thresholds)
    }

    let context = ComparisonContext(baselineLabel: "main", candidateLabel: "pr")
    let line = "3 rows judged together (Holm, 1% over all): on a device tier every phase is stretched past the absolute floor and can fail the check"

    @Test func textAndMarkdownSayItOnce() throws {
        let holm = Self.comparison(family: .holm)
        // Completely separated: the drawing stays slower among three rows.
        #expect(holm.regressions.map(\.path).contains("drawing"))
        #expect(ComparisonTextTable().render(holm, context: context).hasSuffix(line + "\n"))
        let markdown = ComparisonMarkdown().render(holm, context: context)
        #expect(markdown.contains("3 rows judged together (Holm, 1% over all)"))
        let perRow = Self.comparison(family: .perRow)
        #expect(!ComparisonTextTable().render(perRow, context: context).contains("judged together"))
        #expect(!ComparisonMarkdown().render(perRow, context: context).contains("judged together"))
    }

    @Test func tooFewRunsToFindAnythingAreSaid() {
        var holm = Self.comparison(family: .holm)
        // Five runs each cannot reach 1%/3 (the exact test's smallest p at 5 and 5 is 0.0079; at 6 and 6, 0.0022).
        holm.total.runsEach = 5
        #expect(ComparisonTextTable().render(holm, context: context).contains("; with 5 runs a side none can be found slower: 6 runs each are needed"))
    }

    @Test func jsonCarriesTheCorrectionOnlyWhenThereIsOne() throws {
        func testedTogether(_ comparison: Comparison) throws -> Any? {
            let text = try ComparisonJSON().render(comparison, context: context)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return object["testedTogether"]
        }
        let holm = try #require(try testedTogether(Self.comparison(family: .holm)) as? [String: Any])
        #expect(holm["correction"] as? String == "holm")
        #expect(holm["rows"] as? Int == 3)
        #expect(holm["alpha"] as? Double == 0.01)
        #expect(try testedTogether(Self.comparison(family: .perRow)) == nil)
    }
}

import LaunchCore
import LaunchResults
import LaunchprofTestSupport
import Testing

@testable import LaunchExport

/// The exporters fail with LaunchExport's own error, one renderer for every case.
@Suite struct ExportErrorTests {
    @Test func aJSONDocumentWithANumberJSONCannotHoldIsRefusedWithItsKeyPath() {
        do {
            _ = try jsonText(["series": [1.0, .infinity]])
            Issue.record("an infinite value must be refused")
        } catch {
            guard case .unencodable(let refusal) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(refusal.keyPath == "series[1]")
            #expect(error.description.hasPrefix("the document cannot be written as JSON: series[1]: "))
        }
    }

    @Test func theJSONExporterRefusesAResultJSONCannotHold() {
        var result = SampleResult.classic()
        result.runs[0].total = .nan
        do {
            _ = try JSONResultExporter().render(result)
            Issue.record("a NaN total must be refused")
        } catch {
            guard case .unencodable(let refusal) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(refusal.keyPath == "runs[0].total")
        }
    }

    @Test func eachCaseIsWordedAsBefore() {
        #expect(ExportError.noRunsToDraw.description == "the result has no runs to draw")
        #expect(ExportError.runOutOfRange(run: 4, runs: [1, 2]).description == "--run 4 is out of range: the result has 2 runs, 1…2")
        #expect(
            ExportError.unencodable(.init(keyPath: "rows[0].change", problem: "Unable to encode Double.nan directly in JSON.")).description
                == "the document cannot be written as JSON: rows[0].change: Unable to encode Double.nan directly in JSON.")
    }
}

import Testing
import LaunchExport

/// One format enum for every command: each subject accepts its own formats and the format builds the exporter.
struct OutputFormatTests {
    @Test func eachSubjectAcceptsItsFormatsAndRefusesTheOthersListingItsOwn() throws {
        #expect(try OutputFormat.parse("chrome-trace", for: .result) == .chromeTrace)
        #expect(try OutputFormat.parse("markdown", for: .comparison) == .markdown)
        #expect(try OutputFormat.parse("csv", for: .strategies) == .csv)
        #expect(
            ExportError.notAFormat(text: "csv", subject: .comparison).description == "'csv' is not an output format of this command: use text, markdown or json"
        )
        #expect(throws: ExportError.notAFormat(text: "csv", subject: .comparison)) {
            try OutputFormat.parse("csv", for: .comparison)
        }
        #expect(throws: ExportError.notAFormat(text: "markdown", subject: .launch)) {
            try OutputFormat.parse("markdown", for: .launch)
        }
        #expect(throws: ExportError.self) { try OutputFormat.parse("TEXT", for: .result) }
        #expect(OutputFormat.Subject.result.list == "text, json, csv, markdown, chrome-trace or svg")
    }

    @Test func everyComparisonFormatHasAComparisonExporterAndNoOtherDoes() {
        for format in OutputFormat.allCases {
            #expect((format.comparisonExporter != nil) == OutputFormat.Subject.comparison.formats.contains(format), "\(format)")
        }
        #expect(OutputFormat.markdown.comparisonExporter is ComparisonMarkdown)
        #expect(OutputFormat.csv.resultExporter(precision: 2) is CSVExporter)
        #expect(OutputFormat.svg.resultExporter(precision: 2, run: 3) is SVGTimelineExporter)
    }

    @Test func aStrategyTableRefusesTheFormatsItHasNot() {
        let report = StrategyComparisonReport(rows: [], runs: 5)
        #expect(throws: ExportError.self) { try report.render(.svg) }
        #expect((try? report.render(.csv))?.hasPrefix("strategy,tier,measure") == true)
    }
}

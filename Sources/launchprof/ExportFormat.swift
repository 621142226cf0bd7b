import ArgumentParser
import LaunchExport

/// Every format a result can be rendered in (`report --format`, `run --export-FORMAT`).
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case csv
    case markdown
    case chromeTrace = "chrome-trace"
    case svg

    /// The exporter for this format.
    func exporter(precision: Int, run: Int?) -> any ResultExporter {
        switch self {
        case .text: return TextReportExporter(options: ReportOptions(precision: precision))
        case .json: return JSONResultExporter()
        case .csv: return CSVExporter()
        case .markdown: return MarkdownSummaryExporter(options: ReportOptions(precision: max(precision, 3)))
        case .chromeTrace: return ChromeTraceExporter(run: run)
        case .svg: return SVGTimelineExporter(run: run)
        }
    }
}

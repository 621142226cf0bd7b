/// Every output format launchprof writes, shared by `report`, `run`/`record`/`exec`, `diff`, `check`
/// and `compare`: each command accepts the formats its ``Subject`` has, and the format builds the
/// exporter (hyperfine's `ExportType`).
public enum OutputFormat: String, CaseIterable, Sendable {
    case text
    case json
    case csv
    case markdown
    case chromeTrace = "chrome-trace"
    case svg

    /// What a command renders, which decides the formats it accepts.
    public enum Subject: Equatable, Sendable {
        /// A result as `run`, `record` and `exec` print it: the report or the result document.
        case launch
        /// A saved result (`report`, and `run --export-FORMAT`): every format.
        case result
        /// Two results compared (`diff`, `check`).
        case comparison
        /// Strategies compared, off against on (`compare`).
        case strategies
        /// Change points across commits (`history detect`).
        case history
        /// One phase across commits (`history trend`).
        case trend

        /// The formats of this subject, in the order help texts list them.
        public var formats: [OutputFormat] {
            switch self {
            case .launch: return [.text, .json]
            case .result: return OutputFormat.allCases
            case .comparison: return [.text, .markdown, .json]
            case .strategies: return [.text, .markdown, .json, .csv]
            case .history: return [.text, .markdown, .json]
            case .trend: return [.text, .json]
            }
        }

        /// "text, markdown or json": the formats for a help text or an error.
        public var list: String {
            let names = formats.map(\.rawValue)
            return names.dropLast().joined(separator: ", ") + " or " + names.last!
        }
    }

    /// The format `text` names if `subject` has it; otherwise an error saying which formats it has.
    public static func parse(_ text: String, for subject: Subject) throws(ExportError) -> OutputFormat {
        guard let format = OutputFormat(rawValue: text), subject.formats.contains(format) else {
            throw .notAFormat(text: text, subject: subject)
        }
        return format
    }

    /// The exporter that renders a result in this format (`run`: the run drawn by the chrome-trace
    /// and svg formats, the median run when `nil`).
    public func resultExporter(precision: Int, run: Int? = nil, allPhases: Bool = false) -> any ResultExporter {
        switch self {
        case .text: return TextReportExporter(options: ReportOptions(precision: precision, allPhases: allPhases))
        case .json: return JSONResultExporter()
        case .csv: return CSVExporter()
        case .markdown: return MarkdownSummaryExporter(options: ReportOptions(precision: precision))
        case .chromeTrace: return ChromeTraceExporter(run: run)
        case .svg: return SVGTimelineExporter(run: run)
        }
    }

    /// The exporter that renders a comparison in this format, or `nil` for a format comparisons do not have.
    public var comparisonExporter: (any ComparisonExporter)? {
        switch self {
        case .text: return ComparisonTextTable()
        case .markdown: return ComparisonMarkdown()
        case .json: return ComparisonJSON()
        case .csv, .chromeTrace, .svg: return nil
        }
    }
}

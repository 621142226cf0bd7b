import LaunchCore
import LaunchStats

/// The summary table in Markdown: per phase the median, MAD, min and p90 over the runs (in the
/// median's unit: ``DurationFormat``), the total
/// last; lazy phases as deferred. For pull requests and wikis. A result with instruction counts
/// (`--metric instructions`) has one more column, the median instruction count (`-` for a phase
/// without counts, never 0).
public struct MarkdownSummaryExporter: ResultExporter {
    public static let formatName = "markdown"
    public var options: ReportOptions

    public init(options: ReportOptions = ReportOptions()) {
        self.options = options
    }

    public func render(_ result: LaunchResult) -> String {
        let table = PhaseTable(result)
        let p = options.precision
        var text = "### Launch: \(escape(result.manifest.name)) (\(result.runs.count) run\(result.runs.count == 1 ? "" : "s"))\n\n"
        let counted = table.rows.contains { !$0.instructions.isEmpty } || !table.instructionTotals.isEmpty
        text +=
            counted
            ? "| Phase | Median | MAD | Min | p90 | Instructions |\n|---|---:|---:|---:|---:|---:|\n"
            : "| Phase | Median | MAD | Min | p90 |\n|---|---:|---:|---:|---:|\n"
        func instructions(_ values: [Double]) -> String {
            guard counted else { return "" }
            return " \(Summary(values).map { InstructionFormat.count($0.median) } ?? "-") |"
        }
        func line(_ name: String, _ values: [Double], _ counts: [Double] = []) {
            guard let s = Summary(values) else { return }
            text +=
                "| \(name) | \(DurationFormat.format([s.median, s.mad, s.min, s.p90], like: s.median, digits: p).joined(separator: " | ")) |"
                + instructions(counts) + "\n"
        }
        for row in table.rows where !row.afterLaunch && !row.isMark {
            line(String(repeating: "&nbsp;&nbsp;", count: row.depth) + escape(row.name), row.durations, row.instructions)
        }
        for name in table.deferred { text += "| \(escape(name)) | deferred | | | |" + (counted ? " |" : "") + "\n" }
        line("**Total launch time**", table.totals, table.instructionTotals)
        for row in table.markRows { line("**\(escape(row.name))**", row.durations) }
        return text
    }

    func escape(_ text: String) -> String { MarkdownText.escape(text) }
}

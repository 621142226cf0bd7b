import LaunchCore
import LaunchStats

/// The summary table in Markdown: per phase the median, MAD, min and p90 over the runs (in the
/// median's unit: ``DurationFormat``), the total
/// last; lazy phases as deferred. For pull requests and wikis. A result with instruction counts
/// (`--metric instructions`) has one more column, the median instruction count (`-` for a phase
/// without counts, never 0). A result with system counters (docs/counters.md) has six more: each
/// counter's median over the runs (``CountersFormat/Medians``), `-` where a row has none.
public struct MarkdownSummaryExporter: ResultExporter {
    public var options: ReportOptions

    public init(options: ReportOptions = ReportOptions()) {
        self.options = options
    }

    public func render(_ result: LaunchResult) -> String {
        let table = PhaseTable(result)
        let p = options.precision
        var text = "### Launch: \(escape(result.manifest.name)) (\(result.runs.count) run\(result.runs.count == 1 ? "" : "s"))\n\n"
        let counted = table.rows.contains { !$0.instructions.isEmpty } || !table.instructionTotals.isEmpty
        let withCounters = table.rows.contains { !$0.counters.isEmpty } || !table.totalCounters.isEmpty
        let extra = (counted ? ["Instructions"] : []) + (withCounters ? Self.counterColumns : [])
        text += "| Phase | Median | MAD | Min | p90 |" + extra.map { " \($0) |" }.joined() + "\n"
        text += "|---|---:|---:|---:|---:|" + String(repeating: "---:|", count: extra.count) + "\n"
        func instructions(_ values: [Double]) -> String {
            guard counted else { return "" }
            return " \(Summary(values).map { InstructionFormat.count($0.median) } ?? "-") |"
        }
        func counters(_ runs: [PhaseCounters], blocked: [Double]) -> String {
            guard withCounters else { return "" }
            return Self.counterCells(CountersFormat.Medians(runs, blocked: blocked, digits: p)).map { " \($0) |" }.joined()
        }
        func line(_ name: String, _ values: [Double], _ counts: [Double] = [], _ runs: [PhaseCounters] = [], blocked: [Double] = []) {
            guard let s = Summary(values) else { return }
            text +=
                "| \(name) | \(DurationFormat.format([s.median, s.mad, s.min, s.p90], like: s.median, digits: p).joined(separator: " | ")) |"
                + instructions(counts) + counters(runs, blocked: blocked) + "\n"
        }
        for row in table.rows where !row.afterLaunch && !row.isMark {
            line(
                String(repeating: "&nbsp;&nbsp;", count: row.depth) + escape(row.name), row.durations, row.instructions, row.counters, blocked: row.blockedTimes
            )
        }
        for name in table.deferred { text += "| \(escape(name)) | deferred | | | |" + String(repeating: " |", count: extra.count) + "\n" }
        line("**Total launch time**", table.totals, table.instructionTotals, table.totalCounters)
        for row in table.markRows { line("**\(escape(row.name))**", row.durations) }
        return text
    }

    func escape(_ text: String) -> String { MarkdownText.escape(text) }

    /// The system counters' columns (docs/counters.md): medians over the runs.
    static let counterColumns = ["CPU", "Waiting", "Blocked", "Faults (minor / major)", "Switches (vol. / invol.)", "Read / written"]

    /// A row's counter cells, `-` for what it does not have.
    static func counterCells(_ medians: CountersFormat.Medians?) -> [String] {
        guard let m = medians else { return Array(repeating: "-", count: counterColumns.count) }
        let io = m.read.flatMap { read in m.written.map { "\(read) / \($0)" } }
        return [
            m.cpu, m.waiting ?? "-", m.blocked ?? "-", "\(m.minorFaults) / \(m.majorFaults)", "\(m.voluntarySwitches) / \(m.involuntarySwitches)", io ?? "-"
        ]
    }
}

import LaunchCore
import LaunchStats

extension TextReportExporter {
    /// The timed report's sections (``TextReportExporter/render(_:)``), one method each, in the order
    /// they print: what one result's table and the options make of each.
    struct TimedReport {
        let exporter: TextReportExporter
        let result: LaunchResult
        let table: PhaseTable
        /// Several runs: times are medians `± MAD`.
        let multi: Bool
        /// Emulating a tier, with each phase's host time known: `(host …)` follows each time.
        let emulated: Bool
        let folded: Folded

        var options: ReportOptions { exporter.options }
        var digits: Int { options.precision }

        init(_ exporter: TextReportExporter, _ result: LaunchResult, _ table: PhaseTable) {
            self.exporter = exporter
            self.result = result
            self.table = table
            multi = result.runs.count > 1
            emulated =
                result.configuration?.tier != nil
                && table.rows.contains { $0.hostDurations.count == $0.durations.count && !$0.hostDurations.isEmpty }
            folded = Folded(table, share: exporter.options.allPhases ? nil : exporter.options.foldedShare)
        }

        /// Every line, the report's order.
        func lines() -> [String] {
            var lines = exporter.rankingLines(result, table)
            if multi { lines.append("(\(result.runs.count) runs: median ± median absolute deviation)") }
            lines += launchPhaseLines() + deferredLines() + folded.line(digits: digits)
            lines.append(totalLine())
            if let samples = result.samples { lines.append(SampleReport.summaryLine(samples)) }
            lines += markLines()
            if result.command != nil { lines += TextReportExporter.processLines(result.runs, multi: multi, time: time) }
            lines += section("On worker threads:", table.rows.filter { $0.onWorkerThread && !$0.inBackground })
            lines += section("After interactive:", afterInteractiveRows())
            if let dialog = TextReportExporter.dialogLine(result.runs, precision: digits) { lines.append(dialog) }
            if let taps = TextReportExporter.tapsLine(result.runs.compactMap(\.taps), precision: digits) { lines.append(taps) }
            // The background step, after the launch and outside its total.
            lines += table.rows.filter(\.inBackground).flatMap { phaseLines($0) }
            if let memory = TextReportExporter.backgroundMemoryLine(result.runs) { lines.append(memory) }
            return lines + slowReasonLines()
        }

        /// A time: the median, `± MAD` with several runs; `n/a` without values.
        func time(_ values: [Double]) -> String {
            guard let s = Summary(values) else { return "n/a" }
            return multi ? DurationFormat.format(s.median, spread: s.mad, digits: digits) : DurationFormat.format(s.median, digits: digits)
        }

        /// What follows a phase's time: its host time, memory and counters, as the options ask.
        func extras(_ row: PhaseTable.Row) -> String {
            var text = ""
            if emulated, let host = Summary(row.hostDurations) {
                text += " (host \(DurationFormat.format(host.median, digits: digits)))"
            }
            if options.showMemory, let rss = Summary(row.residentBytes.map(Double.init)) {
                text += "  [rss \(MemoryFormat.mebibytes(rss.median))"
                if let growth = Summary(row.residentGrowth.map(Double.init)) { text += ", \(MemoryFormat.change(growth.median))" }
                text += "]"
            }
            if options.showCounters, let counters = CountersFormat.text(row, digits: digits) { text += "  " + counters }
            return text
        }

        /// `Time for <phase>: …`, indented by its depth (and `indent` more), then its top functions.
        func phaseLines(_ row: PhaseTable.Row, indent: Int = 0) -> [String] {
            let line = String(repeating: "  ", count: row.depth + indent) + "Time for \(PlainText.oneLine(row.name)): \(time(row.durations))" + extras(row)
            return [line] + FunctionReport.topLines(result.samples?.phase(row.path), top: options.topFunctions, depth: row.depth + indent)
        }

        /// The launch's own phases on the main thread, in the order they ran, the folded ones left out.
        func launchPhaseLines() -> [String] {
            table.rows.filter { row in !row.afterLaunch && !row.isMark && !row.onWorkerThread && !folded.paths.contains(row.path) }
                .flatMap { phaseLines($0) }
        }

        /// `Time for <stage>: deferred`, with its first use's time when it was touched.
        func deferredLines() -> [String] {
            table.deferred.flatMap { name in
                var line = "Time for \(PlainText.oneLine(name)): deferred"
                if let touched = table.rows.first(where: { $0.afterLaunch && $0.depth == 0 && $0.name == name }) {
                    line += ", \(time(touched.durations)) on first use" + extras(touched)
                }
                return [line]
                    + TextReportExporter.firstUseLines(table, stage: name, prefix: "Time for", includingPreload: false) { time($0.durations) + extras($0) }
            }
        }

        /// `Total launch time: …`, with the host's total, the peak memory and the counters as asked.
        func totalLine() -> String {
            var total = "Total launch time: \(time(table.totals))"
            if emulated, let host = Summary(table.hostTotals) {
                total += " (host \(DurationFormat.format(host.median, digits: digits)))"
            }
            if options.showMemory, let peak = Summary(result.runs.compactMap(\.peakResidentBytes).map(Double.init)) {
                total += "  [peak \(MemoryFormat.mebibytes(peak.median))]"
            }
            if options.showCounters, let counters = CountersFormat.text(table.totalCounters, blocked: [], digits: digits) { total += "  " + counters }
            return total
        }

        /// What users feel: `Time to first frame: 0.05s`, `Time to interactive: 0.36s` (and any other mark).
        func markLines() -> [String] {
            table.markRows.filter { $0.name != PhaseTable.tapLatencyRowName }.map { row in
                var line = "\(PlainText.oneLine(row.name)): \(time(row.durations))"
                if row.durations.count < result.runs.count { line += " (in \(row.durations.count) of \(result.runs.count) runs)" }
                return line
            }
        }

        /// The main thread's work after interactive that is neither a first use nor a tap (drawing
        /// images decoded on workers).
        func afterInteractiveRows() -> [PhaseTable.Row] {
            func under(_ top: String, _ row: PhaseTable.Row) -> Bool { row.path == top || row.path.hasPrefix(top + "/") }
            return table.rows.filter { row in
                row.afterLaunch && !row.onWorkerThread && !row.inBackground && !row.isMark
                    && !under(AppInterface.handlingTapPhase, row) && !table.deferred.contains { under($0, row) }
            }
        }

        /// `title` and `rows` beneath it, one level in; nothing without rows.
        func section(_ title: String, _ rows: [PhaseTable.Row]) -> [String] {
            rows.isEmpty ? [] : [title] + rows.flatMap { phaseLines($0, indent: 1) }
        }

        /// `Why it is slow:` and the reasons, when a diagnosis was made.
        func slowReasonLines() -> [String] {
            guard let reasons = result.slowReasons else { return [] }
            if reasons.isEmpty { return ["Why it is slow: no rule of docs/why-slow.md fired; see Where the time goes"] }
            return ["Why it is slow:"] + reasons.map { "  " + PlainText.oneLine($0.message) }
        }
    }
}

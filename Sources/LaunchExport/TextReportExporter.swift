import LaunchCore
import LaunchStats

/// The classic report: `Where the time goes` (the phases with the most self time, with their share
/// of the launch), then one `Time for <phase>: …` line per phase in the order they ran, children
/// indented beneath their parent, lazy phases as `deferred`, phases under 1% of the launch folded
/// into one line (unless ``ReportOptions/allPhases``), then `Total launch time: …`, then a
/// `Time to <mark>: …` line per mark (`first frame`, `interactive`): what users feel. Times are in
/// the unit that fits (``DurationFormat``). See docs/report.md.
///
/// ```
/// Time for Init: 890 ms
/// Time for building layouts: 910 ms
/// Time for loading themes: 450 ms
/// Time for drawing: 1.43 s
/// Total launch time: 3.68 s
/// ```
/// With several runs each time is the median, followed by `± MAD` in the median's unit. A result measured in
/// instructions (`--metric instructions`) prints `Instructions for <phase>: 118.4 M` lines and
/// `Total launch instructions: …` instead: its times are Valgrind's, not launch times.
public struct TextReportExporter: ResultExporter {
    public var options: ReportOptions

    public init(options: ReportOptions = ReportOptions()) {
        self.options = options
    }

    public func render(_ result: LaunchResult) -> String {
        let table = PhaseTable(result)
        if result.configuration?.metric == .instructions || !table.instructionTotals.isEmpty {
            return renderInstructions(result, table)
        }
        return TimedReport(self, result, table).lines().joined(separator: "\n") + "\n"
    }

    /// A program's peak memory and, when some runs did not exit 0 (`--ignore-failure`), how they ended:
    /// `Peak memory: 9.2 MiB ± 0.1 MiB`, `Exit status: 1 in 2 of 5 runs, 0 in 3`.
    static func processLines(_ runs: [RunRecord], multi: Bool, time: ([Double]) -> String) -> [String] {
        var lines: [String] = []
        if let peak = Summary(runs.compactMap(\.peakResidentBytes).map(Double.init)) {
            lines.append("Peak memory: \(MemoryFormat.mebibytes(peak.median))" + (multi ? " ± \(MemoryFormat.mebibytes(peak.mad))" : ""))
        }
        let endings = runs.compactMap(\.process).map { process in
            process.killedOverMemoryLimit == true
                ? "killed: over the memory budget"
                : process.signal.map { "killed by \(SignalNames.name(Int32(clamping: $0)))" } ?? process.exitStatus.map { "\($0)" } ?? "stopped when ready"
        }
        if endings.contains(where: { $0 != "0" && $0 != "stopped when ready" }) {
            var counts: [(String, Int)] = []
            for ending in endings {
                if let i = counts.firstIndex(where: { $0.0 == ending }) { counts[i].1 += 1 } else { counts.append((ending, 1)) }
            }
            lines.append("Exit status: " + counts.map { "\($0.0) in \($0.1) of \(endings.count) runs" }.joined(separator: ", "))
        }
        return lines
    }

    /// `Memory in the background: dirty 9.1 MiB (was 12.3), resident 21.0 MiB (was 24.2)`:
    /// medians over the runs of the app's own samples around its background step.
    static func backgroundMemoryLine(_ runs: [RunRecord]) -> String? {
        func median(_ name: String) -> Double? { Summary(runs.compactMap { $0.counter(name) }.map(Double.init))?.median }
        guard let dirty = median("dirty bytes after background") else { return nil }
        var line = "Memory in the background: dirty \(MemoryFormat.mebibytes(dirty))"
        // `(was 3.1)`: in the unit just before it, so that the line fits 80 columns.
        func was(_ bytes: Double) -> String { " (was \(SecondsFormat.format(bytes / 1_048_576, precision: 1)))" }
        if let before = median("dirty bytes before background") { line += was(before) }
        if let resident = median("resident bytes after background") {
            line += ", resident \(MemoryFormat.mebibytes(resident))"
            if let before = median("resident bytes before background") { line += was(before) }
        }
        return line
    }

    /// Counters the report prints on lines of their own (memory around the background step, the dialog).
    static func hasLineOfItsOwn(_ counter: String) -> Bool {
        counter.hasSuffix(" background") || counter.hasPrefix(SlowLaunchDiagnosis.unusedAtLaunchPrefix) || counter.hasPrefix("loading dialog")
            || counter.hasPrefix("spinner ") || counter.hasPrefix("longest spinner")
    }

    /// `Loading dialog: shown in 3 of 3 runs, for 1.52 s, 45 spinner frames, longest gap 50.0 ms`, or
    /// `Loading dialog: not shown`: medians over the runs that showed it.
    static func dialogLine(_ runs: [RunRecord], precision: Int) -> String? {
        let flags = runs.compactMap { $0.counter("loading dialog shown") }
        guard !flags.isEmpty else { return nil }
        let shown = runs.filter { ($0.counter("loading dialog shown") ?? 0) > 0 }
        guard !shown.isEmpty else { return "Loading dialog: not shown (init finished before it was due)" }
        func median(_ name: String) -> Double { Summary(shown.compactMap { $0.counter(name) }.map(Double.init))?.median ?? 0 }
        return
            "Loading dialog: shown in \(shown.count) of \(flags.count) runs, for \(DurationFormat.format(median("loading dialog milliseconds") / 1000, digits: precision)), "
            + "\(Int(median("spinner frames drawn"))) spinner frames, longest gap \(DurationFormat.format(median("longest spinner gap milliseconds") / 1000, digits: precision))"
    }

    /// `taps: 3 delivered, 0 lost, latency median 310 ms max 350 ms`, over every run with taps.
    static func tapsLine(_ taps: [TapRecord], precision: Int) -> String? {
        guard !taps.isEmpty else { return nil }
        let delivered = taps.reduce(0) { $0 + $1.delivered }, lost = taps.reduce(0) { $0 + $1.lost }
        var line = "taps: \(delivered) delivered\(taps.count > 1 ? " in \(taps.count) runs" : ""), \(lost) lost"
        let latencies = taps.flatMap(\.latencies)
        if let s = Summary(latencies), let max = latencies.max() {
            line += ", latency median \(DurationFormat.format(s.median, digits: precision)) max \(DurationFormat.format(max, digits: precision))"
        }
        return line
    }

    /// The instruction report: the median count of each phase, in the order the phases ran.
    func renderInstructions(_ result: LaunchResult, _ table: PhaseTable) -> String {
        var lines: [String] = []
        if result.runs.count > 1 { lines.append("(\(result.runs.count) runs: median instruction counts; times under Valgrind are not shown)") }
        func count(_ values: [Double]) -> String {
            guard let s = Summary(values) else { return "not counted" }
            var text = InstructionFormat.count(s.median)
            if let low = values.min(), let high = values.max(), s.median > 0, high - low > s.median * 0.001 {
                text += " (runs differ by \(SecondsFormat.format((high - low) / s.median * 100, precision: 2))%)"
            }
            return text
        }
        func phaseLine(_ row: PhaseTable.Row) -> String {
            String(repeating: "  ", count: row.depth) + "Instructions for \(PlainText.oneLine(row.name)): \(count(row.instructions))"
        }
        for row in table.rows where !row.afterLaunch && !row.isMark {
            lines.append(phaseLine(row))
            if let functions = result.functions?.phase(row.path) {
                lines += FunctionReport.topLines(functions, top: options.topFunctions, depth: row.depth)
            }
        }
        for name in table.deferred {
            var line = "Instructions for \(PlainText.oneLine(name)): deferred"
            if let touched = table.rows.first(where: { $0.afterLaunch && $0.depth == 0 && $0.name == name }) {
                line += ", \(count(touched.instructions)) on first use"
            }
            lines.append(line)
            lines += Self.firstUseLines(table, stage: name, prefix: "Instructions for", includingPreload: true) { count($0.instructions) }
        }
        lines.append("Total launch instructions: \(count(table.instructionTotals))")
        lines += table.rows.filter(\.inBackground).map(phaseLine)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The line above the report: what ran, how often, how, and where.
    public func header(_ result: LaunchResult) -> String {
        var text = "launchprof \(PlainText.oneLine(result.tool.version)): "
        if result.command != nil {
            // The command line as typed (the result's `command` has the resolved executable).
            text += PlainText.oneLine(result.manifest.name)
        } else {
            text += "\(PlainText.oneLine(result.manifest.name)) (\(PlainText.oneLine(result.manifest.path)))"
        }
        if let c = result.configuration {
            text += ", \(c.runs) run\(c.runs == 1 ? "" : "s")"
            if c.warmup > 0 { text += " after \(c.warmup) warm-up" }
            text += ", \(c.mode)"
            if c.metric == .instructions { text += ", instructions under Callgrind" }
            if let tier = c.tier {
                let factors = PhaseKind.allCases.compactMap { kind in
                    tier.factors[kind].map { "\(kind.rawValue) ×\(SecondsFormat.format($0, precision: 1))" }
                }
                text += ", emulating \(PlainText.oneLine(tier.name)) (\(factors.joined(separator: ", ")))"
                if let calibration = tier.calibration { text += " on \(Self.calibrationPhrase(calibration))" }
                if let clocks = Self.runClocksPhrase(result.runs) { text += ", \(clocks)" }
                if let throttle = result.command?.throttle { text += ": \(PlainText.oneLine(throttle))" }
            }
        } else {
            text += ", \(result.runs.count) run\(result.runs.count == 1 ? "" : "s")"
        }
        return text + ", on \(PlainText.oneLine(result.host.cpuModel))"
    }

    /// ``header(_:)`` wrapped for an 80-column terminal at its commas.
    public func headerLines(_ result: LaunchResult) -> [String] {
        let parts = header(result).split(separator: ", ", omittingEmptySubsequences: false).map(String.init)
        return TextWrap.lines(parts, separator: ", ")
    }

    /// `the cached calibration of 2026-11-25T20:51:03Z`: which calibration gave a tier's factors.
    static func calibrationPhrase(_ info: CalibrationInfo) -> String {
        let which = info.source == "cache" ? "the cached" : info.source == "baseline" ? "the baseline's" : "a new"
        return "\(which) calibration of \(PlainText.oneLine(info.made))"
    }

    /// `runs stretched at 3.19–3.23 GHz`: the core's clock a tier's runs read and were stretched at
    /// (``RunRecord/clockGigahertz``), or `nil` when no run recorded one.
    static func runClocksPhrase(_ runs: [RunRecord]) -> String? {
        let clocks = runs.compactMap(\.clockGigahertz)
        guard let low = clocks.min(), let high = clocks.max() else { return nil }
        let (from, to) = (DurationFormat.fixed(low, decimals: 2), DurationFormat.fixed(high, decimals: 2))
        return "runs stretched at \(from == to ? from : "\(from)–\(to)") GHz"
    }

    /// One line of counters that explain time, e.g. `19 keys laid out · 4 images decoded`, from the first run.
    public func countersLine(_ result: LaunchResult) -> String? {
        counterItems(result).map { $0.joined(separator: " · ") }
    }

    /// The counters as `Counts:` lines for an 80-column terminal: one line, the rest counted
    /// (`and 11 more (--all-phases)`), or all of them with ``ReportOptions/allPhases``.
    public func countersLines(_ result: LaunchResult) -> [String] {
        guard let items = counterItems(result) else { return [] }
        return TextWrap.lines(items, prefix: "Counts: ", separator: " · ", maximumLines: options.allPhases ? .max : 1) {
            "and \($0) more (--all-phases)"
        }
    }

    func counterItems(_ result: LaunchResult) -> [String]? {
        // The memory samples around the background step have a line of their own.
        guard let counters = result.runs.first?.counters.filter({ !Self.hasLineOfItsOwn($0.name) }), !counters.isEmpty else { return nil }
        return counters.map { "\(Self.grouped($0.value)) \(PlainText.oneLine($0.name))" }
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }
}

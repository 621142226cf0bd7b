import LaunchCore
import LaunchExport
import LaunchResults

/// `launchprof report`'s work, in named steps: the result read and the run asked for checked, the
/// exporter the options choose, the text written to `--output` or stdout. ``ReportCommand`` only
/// parses and checks its options.
struct ReportPlan {
    let result: String
    let format: OutputFormat
    let output: String?
    let runNumber: Int?
    let criticalPath: Bool
    let blame: Bool
    let precision: Int
    let functionsPhase: String?
    let flameGraph: FlameGraphOptions
    let allPhases: Bool
    let counters: Bool

    func run() throws {
        let loaded = try ResultFile.read(result)
        // Every format, not only those that draw one run: an absent run is an error, never an empty report.
        if let runNumber, !loaded.runs.contains(where: { $0.index == runNumber }) {
            throw InputError.about(subject: result, ExportError.runOutOfRange(run: runNumber, runs: loaded.runs.map(\.index)))
        }
        if flameGraph.format != nil { return try write(try flameGraph.render(loaded, path: result)) }
        let text: String
        do { text = try exporter().render(loaded) } catch { throw InputError(error) }
        try write(text)
    }

    /// The exporter of `--functions`, `--critical-path`, `--blame`, `--counters`, or `--format`.
    private func exporter() -> any ResultExporter {
        if let functionsPhase { return FunctionTableReport(phase: functionsPhase) }
        if criticalPath { return CriticalPathReport(options: ReportOptions(precision: precision), run: runNumber) }
        if blame { return BlameReport(options: ReportOptions(precision: precision)) }
        if counters, format == .text {
            var options = ReportOptions(precision: precision, allPhases: allPhases)
            options.showCounters = true
            return TextReportExporter(options: options)
        }
        return format.resultExporter(precision: precision, run: runNumber, allPhases: allPhases)
    }

    /// `text` to `--output`, or to stdout.
    private func write(_ text: String) throws {
        if let output {
            try FileIO.writeAtomically(text, to: output)
        } else {
            print(text, terminator: "")
        }
    }
}

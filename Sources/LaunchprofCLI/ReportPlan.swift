import LaunchCore
import LaunchExport
import LaunchResults

/// `launchprof report`'s work, in named steps: the result read and the run asked for checked, the
/// exporter the options choose, the text written to `--output` or stdout. ``ReportCommand`` only
/// parses its options (``ReportRequestOptions``, which checks them).
struct ReportPlan {
    /// The result file to read.
    let result: String
    let options: ReportRequestOptions

    func run() throws {
        let loaded = try ResultFile.read(result)
        // Every format, not only those that draw one run: an absent run is an error, never an empty report.
        if let runNumber = options.runNumber, !loaded.runs.contains(where: { $0.index == runNumber }) {
            throw InputError.about(subject: result, ExportError.runOutOfRange(run: runNumber, runs: loaded.runs.map(\.index)))
        }
        if options.flameGraph.format != nil { return try write(try options.flameGraph.render(loaded, path: result)) }
        try write(try exporter().render(loaded))
    }

    /// The exporter of `--functions`, `--critical-path`, `--blame`, `--counters`, or `--format`.
    private func exporter() -> any ResultExporter {
        let precision = options.decimals.precision
        if let phase = options.functionsPhase { return FunctionTableReport(phase: phase) }
        if options.criticalPath { return CriticalPathReport(options: ReportOptions(precision: precision), run: options.runNumber) }
        if options.blame { return BlameReport(options: ReportOptions(precision: precision)) }
        if options.counters, options.format == .text {
            var textOptions = ReportOptions(precision: precision, allPhases: options.allPhases)
            textOptions.showCounters = true
            return TextReportExporter(options: textOptions)
        }
        return options.format.resultExporter(precision: precision, run: options.runNumber, allPhases: options.allPhases)
    }

    /// `text` to `--output`, or to stdout.
    private func write(_ text: String) throws {
        if let output = options.output {
            try FileIO.writeAtomically(text, to: output)
        } else {
            print(text, terminator: "")
        }
    }
}

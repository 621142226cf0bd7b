import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchResults

/// How `run` and `record` print and save the result.
struct ReportOutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Write the result document (JSON) to this file, atomically.", valueName: "file"))
    var output: String?

    @Option(
        name: .long, help: "Output format: text (the classic report, the default) or json (the result document).",
        transform: OutputFormat.argument(.launch))
    var format: OutputFormat = .text

    @OptionGroup var decimals: PrecisionOption

    /// `--precision`: significant digits of times.
    var precision: Int { decimals.precision }

    @Flag(name: .customLong("all-phases"), help: "List every phase: by default those under 1% of the launch are folded into one line.")
    var allPhases = false

    @Flag(name: .long, help: "After the report, list phases by self time (time not in child phases), with inclusive time.")
    var blame = false

    @Flag(name: .customLong("critical-path"), help: "After the report, print the chain of phases that decided the median run's total.")
    var criticalPath = false

    @Flag(name: .long, help: "Show resident memory at the end of each phase and its growth.")
    var memory = false

    @Flag(name: .long, help: "Show each phase's system counters: CPU, waiting for a CPU, blocked, page faults, context switches, bytes read and written.")
    var counters = false

    @Flag(name: .long, help: "Also print min, median, mean, standard deviation, MAD, p90 and outliers per phase.")
    var stats = false

    @Option(name: .customLong("export-json"), help: ArgumentHelp("Also write the result as JSON here.", valueName: "file"))
    var exportJSON: String?

    @Option(name: .customLong("export-csv"), help: ArgumentHelp("Also write CSV (one row per run and phase) here.", valueName: "file"))
    var exportCSV: String?

    @Option(name: .customLong("export-markdown"), help: ArgumentHelp("Also write the Markdown summary table here.", valueName: "file"))
    var exportMarkdown: String?

    @Option(name: .customLong("export-chrome-trace"), help: ArgumentHelp("Also write a Chrome trace (for ui.perfetto.dev) here.", valueName: "file"))
    var exportChromeTrace: String?

    @Option(name: .customLong("export-svg"), help: ArgumentHelp("Also write an SVG timeline of the median run here.", valueName: "file"))
    var exportSVG: String?

    func validate() throws {
        try OutputPath.check(output, option: "--output")
        for (option, path) in [
            ("--export-json", exportJSON), ("--export-csv", exportCSV), ("--export-markdown", exportMarkdown),
            ("--export-chrome-trace", exportChromeTrace), ("--export-svg", exportSVG)
        ] {
            try OutputPath.check(path, option: option)
        }
        if blame || criticalPath, format != .text {
            throw ValidationError(
                "--blame and --critical-path print after the text report: leave out --format \(format.rawValue), or use `launchprof report FILE --blame` on the saved result"
            )
        }
    }

    /// `--blame` and `--critical-path`, as `launchprof report` prints them, in that order.
    func analyses(_ options: ReportOptions) -> [any ResultExporter] {
        var analyses: [any ResultExporter] = []
        if blame { analyses.append(BlameReport(options: options)) }
        if criticalPath { analyses.append(CriticalPathReport(options: options)) }
        return analyses
    }

    /// Writes `--output`, prints warnings, and prints the report (or the JSON document) of a launch
    /// of the built-in app.
    func emit(_ result: LaunchResult, profile: AppLaunchPlan) throws {
        let snapshot = (profile.options.snapshot ?? profile.manifest.snapshot).map { "Snapshot: \($0) (saved in the background)" }
        try emit(result, quiet: profile.quiet, notes: snapshot.map { [$0] } ?? [], topFunctions: profile.topFunctions)
    }

    /// The report, folding more (phases under 1%, then 2%, 3%, 5% of the launch) until it and its
    /// opening lines fit one screen (docs/report.md); `--all-phases` folds nothing.
    private func firstScreen(_ result: LaunchResult, opening: [String], options: inout ReportOptions) -> String {
        var report = ""
        for share in TextReportExporter.foldedShares {
            options.foldedShare = share
            report = TextReportExporter(options: options).render(result)
            let lines = TextReportExporter.screenLines(of: opening.map { $0 + "\n" }.joined() + "\n" + report)
            if options.allPhases || lines <= TextReportExporter.screenLines { break }
        }
        return report
    }

    /// Whether the result goes anywhere but the text report (a file, an export, another format):
    /// then it must say everything, its git state too.
    var keepsResult: Bool {
        format != .text || [output, exportJSON, exportCSV, exportMarkdown, exportChromeTrace, exportSVG].contains { $0 != nil }
    }

    /// Writes `--output` and the exports, prints the result's warnings on stderr (unless `quiet`),
    /// and prints the report (after a header and `notes`, unless `quiet`) or the JSON document.
    func emit(_ result: LaunchResult, quiet: Bool, notes: [String] = [], topFunctions: Int = FunctionReport.defaultTop) throws {
        if let output { try ResultFile.write(result, to: output) }
        let exports: [(OutputFormat, String?)] = [
            (.json, exportJSON), (.csv, exportCSV), (.markdown, exportMarkdown),
            (.chromeTrace, exportChromeTrace), (.svg, exportSVG)
        ]
        for case let (format, path?) in exports {
            try FileIO.writeAtomically(try format.resultExporter(precision: precision).render(result), to: path)
        }
        if !quiet { StandardError.warnings(of: result) }
        if format == .text {
            var options = ReportOptions(precision: precision, showMemory: memory, allPhases: allPhases)
            options.topFunctions = topFunctions
            options.showCounters = counters
            let header = TextReportExporter(options: options)
            let opening = quiet ? [] : header.headerLines(result) + header.countersLines(result) + notes
            let report = firstScreen(result, opening: opening, options: &options)
            if !quiet {
                for line in opening { print(line) }
                if stats { print(StatisticsTable(options: options).render(result), terminator: "") }
                print("")
            }
            print(report, terminator: "")
            for analysis in analyses(options) {
                print("")
                print(try analysis.render(result), terminator: "")
            }
        } else {
            print(try format.resultExporter(precision: precision).render(result), terminator: "")
        }
    }
}

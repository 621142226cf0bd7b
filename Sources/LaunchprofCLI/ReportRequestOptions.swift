import ArgumentParser
import LaunchCore
import LaunchExport

/// What `launchprof report` renders of a result and where (``ReportPlan``): the format or analysis
/// (`--critical-path`, `--blame`, `--functions`, `--flame-graph`), the run, the digits, `--output`.
struct ReportRequestOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: \(OutputFormat.Subject.result.list) (default: text).", transform: OutputFormat.argument(.result))
    var format: OutputFormat = .text

    @Option(name: .long, help: ArgumentHelp("Write to this file (atomically) instead of stdout.", valueName: "file"))
    var output: String?

    @Option(
        range: OptionRanges.run, help: "Only this run (chrome-trace, svg, critical path); svg and critical path default to the median run. 1 to 1000000.",
        valueName: "k")
    var runNumber: Int?

    @Flag(name: .customLong("critical-path"), help: "Print the chain of phases that decided the total.")
    var criticalPath = false

    @Flag(name: .long, help: "List phases by self time (time not in child phases), with inclusive time.")
    var blame = false

    @OptionGroup var decimals: PrecisionOption

    @Option(
        name: .customLong("functions"),
        help: ArgumentHelp(
            "Print one phase's whole function profile (a result made with --metric instructions --functions): its path, or its name when only one phase has it.",
            valueName: "phase"))
    var functionsPhase: String?

    @OptionGroup var flameGraph: FlameGraphOptions

    @Flag(name: .customLong("all-phases"), help: "List every phase: by default the text report folds those under 1% of the launch into one line.")
    var allPhases = false

    @Flag(name: .long, help: "Show each phase's system counters (the text report; docs/counters.md).")
    var counters = false

    func validate() throws {
        guard !(criticalPath && blame) else { throw ValidationError("give --critical-path or --blame, not both") }
        if functionsPhase != nil, criticalPath || blame || format != .text {
            throw ValidationError("--functions prints a text table of its own: leave out --critical-path, --blame and --format")
        }
        if flameGraph.format != nil, functionsPhase != nil || criticalPath || blame || format != .text || runNumber != nil {
            throw ValidationError("--flame-graph writes a format of its own: leave out --functions, --critical-path, --blame, --format and --run")
        }
        if let runNumber { try OptionRanges.run.check(runNumber) }
        try OutputPath.check(output, option: "--output")
    }
}

import ArgumentParser
import LaunchCore
import LaunchExport

/// `launchprof report`: renders a saved result in any format, or analyses it.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a saved result: text, json, csv, markdown, chrome-trace (Perfetto) or svg; critical path; blame.",
        discussion: """
            Examples:
              launchprof run --output result.json && launchprof report result.json
              # open in ui.perfetto.dev
              launchprof report result.json --format chrome-trace --output trace.json
              # the median run
              launchprof report result.json --format svg --output launch.svg
              launchprof report result.json --format svg --run 3 --output run3.svg
              launchprof report result.json --critical-path
              launchprof report result.json --blame
              launchprof report result.json --format csv > phases.csv
              # a result made with --metric instructions --functions
              launchprof report result.json --flame-graph svg --output flame.svg
              launchprof report result.json --flame-graph folded --phase drawing > drawing.folded
            """
    )

    @Argument(help: ArgumentHelp("A result file written by `launchprof run --output`, `exec --output` or `record`.", valueName: "result"))
    var result: String

    @Option(name: .long, help: "Output format: \(OutputFormat.Subject.result.list) (default: text).", transform: OutputFormat.argument(.result))
    var format: OutputFormat = .text

    @Option(name: .long, help: ArgumentHelp("Write to this file (atomically) instead of stdout.", valueName: "file"))
    var output: String?

    @Option(
        name: .customLong("run"), parsing: .unconditional,
        help: ArgumentHelp("Only this run (chrome-trace, svg, critical path); svg and critical path default to the median run. 1 to 1000000.", valueName: "k"),
        transform: OptionRanges.run.parse)
    var runNumber: Int?

    @Flag(name: .customLong("critical-path"), help: "Print the chain of phases that decided the total.")
    var criticalPath = false

    @Flag(name: .long, help: "List phases by self time (time not in child phases), with inclusive time.")
    var blame = false

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Significant digits of times, each in the unit that fits (1.25 ms, 830 µs), 0 to 9 (default 3).", valueName: "n"),
        transform: OptionRanges.precision.parse)
    var precision: Int = DurationFormat.defaultDigits

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
        try OptionRanges.precision.check(precision)
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

    func run() throws {
        try ReportPlan(
            result: result, format: format, output: output, runNumber: runNumber, criticalPath: criticalPath, blame: blame, precision: precision,
            functionsPhase: functionsPhase, flameGraph: flameGraph, allPhases: allPhases, counters: counters
        ).run()
    }
}

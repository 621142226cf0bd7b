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

    @OptionGroup var options: ReportRequestOptions

    func run() throws {
        try ReportPlan(result: result, options: options).run()
    }
}

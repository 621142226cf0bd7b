import ArgumentParser
import LaunchCore
import LaunchExport

/// `launchprof diff A B`: compares two results phase by phase.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two results, phase by phase: medians, change, and a verdict with its confidence.",
        discussion: """
            A and B are result files or git revisions, looked up in the results store (see `record`, and `exec --record` for a program, whose results are found with --for-manifest and its name). Verdicts: slower / faster (a significant change larger than the threshold), within noise (any change is smaller than the threshold), inconclusive (the runs cannot tell; it says about how many more would), added, removed. The test is Mann-Whitney U at alpha 0.01; the threshold is 5% and 2 ms by default.

            Examples:
              launchprof diff before.json after.json
              launchprof diff main HEAD --format markdown
              launchprof diff HEAD~1 HEAD --tier iphone-3gs
              # results made with --metric instructions --functions: red grew, blue shrank
              launchprof diff before.json after.json --flame-graph svg > diff.svg
            """
    )

    @Argument(help: ArgumentHelp("The baseline: a result file or a git revision.", valueName: "A"))
    var baseline: String

    @Argument(help: ArgumentHelp("The candidate: a result file or a git revision.", valueName: "B"))
    var candidate: String

    @Option(name: .long, help: "Output format: \(OutputFormat.Subject.comparison.list) (default: text).", transform: OutputFormat.argument(.comparison))
    var format: OutputFormat = .text

    @OptionGroup var lookup: StoreLookupOptions
    @OptionGroup var thresholds: ThresholdOptions
    @OptionGroup var decimals: PrecisionOption
    @OptionGroup var measure: MetricOptions
    @OptionGroup var flameGraph: FlameGraphOptions

    func run() throws {
        // The streaming reader: a 10,000-phase × 100-run result is read without holding the file or
        // a record per phase in memory; the two results are read at once, on two threads.
        let tables = try lookup.loadTables([baseline, candidate], metric: measure.metric)
        let sides = DiffSides(baseline: (baseline, tables[0]), candidate: (candidate, tables[1]))
        if flameGraph.format != nil {
            return print(try flameGraph.renderDifference(tables[0].header, tables[1].header, labels: (baseline, candidate)), terminator: "")
        }
        let metric = sides.metric(given: measure.given)
        let (comparison, context) = try sides.compare(in: metric, thresholds: try thresholds.thresholds(), precision: decimals.precision)
        guard let exporter = format.comparisonExporter else { return }
        print(try exporter.render(comparison, context: context), terminator: "")
    }
}

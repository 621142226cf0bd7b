import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchStats

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
        let sides = try lookup.loadTables([baseline, candidate], metric: measure.metric)
        let a = sides[0], b = sides[1]
        if flameGraph.format != nil {
            return print(try flameGraph.renderDifference(a.header, b.header, labels: (baseline, candidate)), terminator: "")
        }
        // Two results made with --metric instructions are compared in instructions without being told.
        let metric = measure.given ?? b.header.configuration?.metric ?? .time
        for (label, side) in [(baseline, a), (candidate, b)] where side.table.runCount == 0 {
            throw InputError.check(.noRunsToCompare(label: label))
        }
        if metric == .instructions {
            for (label, result) in [(baseline, a), (candidate, b)] where result.table.instructionTotals.isEmpty {
                throw InputError.check(.resultWithoutInstructions(label: label))
            }
        }
        let comparison = Comparison(baseline: a.table, candidate: b.table, thresholds: try thresholds.thresholds(), metric: metric)
        let caveats = Comparison.caveats(baseline: a.header, candidate: b.header)
        for caveat in caveats { StandardError.write("launchprof: caveat: \(caveat)\n") }
        var context = ComparisonContext(baselineLabel: baseline, candidateLabel: candidate, precision: decimals.precision, caveats: caveats)
        context.functionChanges = FunctionReport.changes(
            comparison, baseline: a.header.functions, candidate: b.header.functions, top: FunctionReport.defaultTop)
        guard let exporter = format.comparisonExporter else { return }
        do { print(try exporter.render(comparison, context: context), terminator: "") } catch { throw InputError(error) }
    }
}

extension StoreLookupOptions {
    /// The result a file path or git revision names, read by the streaming reader for comparison.
    func loadTable(_ reference: String, tier: String? = nil, manifest: String? = nil, metric: Metric = .time) throws -> TabulatedResult {
        try loadTables([reference], tier: tier, manifest: manifest, metric: metric)[0]
    }

    /// The results `references` name; files read at once on a thread each (``ResultTableReader/read(all:)``);
    /// an error is the first reference's that failed.
    func loadTables(_ references: [String], tier: String? = nil, manifest: String? = nil, metric: Metric = .time) throws -> [TabulatedResult] {
        try StoredResult.tables(try references.map { try locate($0, tier: tier, manifest: manifest, metric: metric) })
    }
}

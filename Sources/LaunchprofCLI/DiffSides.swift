import LaunchCore
import LaunchExport
import LaunchResults
import LaunchStats

/// `launchprof diff`'s two results, as their labels (a file or a git revision) name them, in named
/// steps: the metric they are compared in, refused when a side cannot be compared, the comparison
/// with its caveats and function changes. ``DiffCommand`` only parses, reads and prints.
struct DiffSides {
    let baseline: (label: String, result: TabulatedResult)
    let candidate: (label: String, result: TabulatedResult)

    /// `--metric`, else what the candidate was measured in: two results made with `--metric
    /// instructions` are compared in instructions without being told.
    func metric(given: Metric?) -> Metric {
        given ?? candidate.result.header.configuration?.metric ?? .time
    }

    /// An empty side, or one without the instruction counts `metric` compares, is an input error naming it.
    func requireComparable(in metric: Metric) throws {
        for (label, side) in [baseline, candidate] where side.table.runCount == 0 {
            throw InputError.check(.noRunsToCompare(label: label))
        }
        guard metric == .instructions else { return }
        for (label, side) in [baseline, candidate] where side.table.instructionTotals.isEmpty {
            throw InputError.check(.resultWithoutInstructions(label: label))
        }
    }

    /// The comparison in `metric` and what its exports say beside it; the caveats are printed on stderr.
    func compare(in metric: Metric, thresholds: Thresholds, precision: Int) throws -> (Comparison, ComparisonContext) {
        try requireComparable(in: metric)
        let (a, b) = (baseline.result, candidate.result)
        let comparison = Comparison(baseline: a.table, candidate: b.table, thresholds: thresholds.forResults(a.header, b.header), metric: metric)
        let caveats = Comparison.caveats(baseline: a.header, candidate: b.header)
        StandardError.caveats(caveats)
        var context = ComparisonContext(baselineLabel: baseline.label, candidateLabel: candidate.label, precision: precision, caveats: caveats)
        context.functionChanges = FunctionReport.changes(
            comparison, baseline: a.header.functions, candidate: b.header.functions, top: FunctionReport.defaultTop)
        return (comparison, context)
    }
}

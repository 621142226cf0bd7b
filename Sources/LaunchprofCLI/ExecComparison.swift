import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchStats
#if canImport(Glibc)
import Glibc
#endif

/// `exec --baseline-command`'s work, in named steps: both commands measured (interleaved, or a few
/// runs a side in instructions) and compared (``measure(_:schedule:thresholds:)``), the table
/// printed, regressions named, the one-line summary, as `check` words them.
struct ExecComparison {
    let baseline: ProgramLaunchPlan
    let candidate: ProgramLaunchPlan
    let baselineResult: LaunchResult
    let candidateResult: LaunchResult
    let comparison: Comparison
    /// What the summary line adds: how the runs were chosen, or the metric.
    let note: String

    /// Both plans measured by `runner` (pairs as `schedule` says, unless instructions are counted) and compared.
    static func measure(
        _ baseline: ProgramLaunchPlan, _ candidate: ProgramLaunchPlan, runner: PlanRunner, schedule: PlanRunner.PairSchedule, thresholds: Thresholds
    ) throws -> ExecComparison {
        if candidate.metric == .instructions {
            let (candidateResult, baselineResult) = try InstructionSides(runner: runner).launch(baseline: baseline, candidate: candidate)
            let comparison = Comparison(baseline: baselineResult, candidate: candidateResult, thresholds: thresholds, metric: .instructions)
            return ExecComparison(
                baseline: baseline, candidate: candidate, baselineResult: baselineResult, candidateResult: candidateResult, comparison: comparison,
                note: "; instructions")
        }
        let outcome = try runner.pair(baseline: baseline, candidate: candidate, schedule: schedule)
        let comparison =
            outcome.sequential?.comparison
            ?? Comparison(
                baseline: outcome.baseline, candidate: outcome.candidate, thresholds: thresholds.forResults(outcome.baseline, outcome.candidate), paired: true)
        return ExecComparison(
            baseline: baseline, candidate: candidate, baselineResult: outcome.baseline, candidateResult: outcome.candidate, comparison: comparison,
            note: outcome.sequential.map { "; \($0.pairs) runs a side (--runs auto)" } ?? "")
    }

    /// What the exports say beside the comparison: the command lines, the digits, the functions that changed.
    func context(precision: Int, topFunctions: Int) -> ComparisonContext {
        var context = ComparisonContext(
            baselineLabel: baseline.command.commandLine, candidateLabel: candidate.command.commandLine, precision: precision)
        context.functionChanges = FunctionReport.changes(
            comparison, baseline: baselineResult.functions, candidate: candidateResult.functions, top: topFunctions)
        return context
    }

    /// The comparison in `format` on stdout (nothing for a format without one), flushed before any line on stderr.
    func printTable(_ format: OutputFormat, _ context: ComparisonContext) throws {
        if let exporter = format.comparisonExporter {
            let table = try exporter.render(comparison, context: context)
            print(table, terminator: table.hasSuffix("\n") ? "" : "\n")
        }
        fflush(nil)  // The table before the lines on stderr, on a terminal too.
    }

    /// `--fail-on-regression`: each regression named on stderr, then exit 1 (``ExitStatus/regression``).
    func failOnRegressions(_ context: ComparisonContext) throws {
        let regressions = comparison.regressions
        guard !regressions.isEmpty else { return }
        for row in regressions { StandardError.write("launchprof: regression in \(FunctionReport.regression(row, context))\n") }
        throw ExitCode(ExitStatus.regression)
    }

    /// `launchprof exec: total 1.2 ms → 1.3 ms, +8.3%, slower`, with the note.
    func summaryLine(precision p: Int) -> String {
        let t = comparison.total
        let m = comparison.metric
        return
            "launchprof exec: total \(ComparisonWording.quantity(t.baselineMedian, m, p)) → \(ComparisonWording.quantity(t.candidateMedian, m, p)), \(ComparisonWording.percent(t.changePercent)), \(ComparisonWording.verdict(t))\(note)\n"
    }
}

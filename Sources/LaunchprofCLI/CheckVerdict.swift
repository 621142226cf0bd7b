import Foundation
import LaunchCore
import LaunchExport
import LaunchStats

/// `check`'s verdict: the comparison of the two sides (or of the candidate with itself for a
/// budget check alone), its context for every export, the budget's violations and the regressions.
struct CheckVerdict {
    let comparison: Comparison
    let context: ComparisonContext
    let violations: [Budget.Violation]
    let regressions: [ComparisonRow]
}

extension CheckPlan {
    /// The verdict on `sides`.
    func verdict(_ sides: Sides) throws -> CheckVerdict {
        let candidate = sides.candidate, baselineResult = sides.baseline
        let violations = sides.budget?.budget.violations(in: candidate.table, tier: candidate.header.configuration?.tier?.name) ?? []
        // Without a baseline (a budget check only), the candidate against itself gives the phase rows
        // the JUnit report lists.
        let candidateTable = candidate.table
        // On a device tier every phase is stretched past the absolute floor: the rows are judged together.
        let thresholds = try options.thresholds.thresholds().forResults(candidate.header, baselineResult?.header)
        let comparison =
            sides.sequential?.comparison
            ?? Comparison(
                baseline: baselineResult?.table ?? candidateTable, candidate: candidateTable, thresholds: thresholds,
                paired: options.baselineManifest != nil && sides.metric == .time, metric: sides.metric)
        var context = ComparisonContext(
            baselineLabel: options.baseline ?? options.baselineManifest ?? "budget", candidateLabel: options.result ?? options.profile.manifest ?? "candidate",
            precision: options.decimals.precision, violations: violations, caveats: sides.caveats)
        context.functionChanges = FunctionReport.changes(
            comparison, baseline: baselineResult?.header.functions, candidate: candidate.header.functions, top: options.functionProfile.top)
        let regressions = baselineResult == nil ? [] : comparison.regressions
        return CheckVerdict(comparison: comparison, context: context, violations: violations, regressions: regressions)
    }

    /// `--junit`, GitHub's annotations and step summary, and stdout: the table with `--table`, or
    /// the document of a machine format.
    func export(_ verdict: CheckVerdict, _ sides: Sides) throws {
        let comparison = verdict.comparison, context = verdict.context
        if let junit = options.junit {
            try FileIO.writeAtomically(JUnitReport().render(comparison, context: context), to: junit)
        }
        let environment = ProcessInfo.processInfo.environment
        if environment["GITHUB_ACTIONS"] == "true" || environment["GITHUB_ACTIONS"] == "1" {
            // Workflow commands are read from both streams: stdout keeps only the document of a
            // machine format.
            let annotations = GitHubAnnotations().render(comparison, context: context)
            if options.format == .text { print(annotations, terminator: "") } else { StandardError.write(annotations) }
            if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
                try FileIO.append(ComparisonMarkdown().render(comparison, context: context) + "\n", to: summary)
            }
        }
        if options.format == .text {
            // Regressions and blown budgets are named on stderr below; the table shows the rows.
            if sides.baseline != nil && options.table {
                var table = context
                table.violations = []
                print(ComparisonTextTable().render(comparison, context: table), terminator: "")
            }
        } else if let exporter = options.format.comparisonExporter {
            print(try exporter.render(comparison, context: context), terminator: "")
        }
    }
}

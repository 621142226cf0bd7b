import LaunchCore
import LaunchExport
import LaunchResults
import LaunchStats

/// What `check` says on stderr after the verdict, and the line it ends with when it passes.
extension CheckPlan {
    /// Names every failure on stderr (regressions, functions that changed, blown budgets, drift in
    /// the history, dirty memory over the tier's budget, lost taps, rows `--runs auto` left
    /// undecided); `true` when one of them fails the check.
    func explainFailures(_ verdict: CheckVerdict, _ sides: Sides) throws -> Bool {
        let comparison = verdict.comparison, candidate = sides.candidate, p = options.decimals.precision
        for row in verdict.regressions { StandardError.write("launchprof: regression in \(ComparisonWording.regression(row, p))\n") }
        // The functions that changed each changed phase (both sides with --functions), unless the table named them.
        if options.format == .text && !(sides.baseline != nil && options.table) {
            for line in FunctionReport.attributionLines(comparison, verdict.context) { StandardError.write("launchprof: functions: \(line)\n") }
        }
        for v in verdict.violations { StandardError.write("launchprof: over budget: \(ComparisonWording.violation(v, p))\n") }
        // --store (or LAUNCHPROF_STORE): what the history says that two commits cannot.
        if !quiet, options.lookup.history.store != nil {
            let tier = candidate.header.configuration?.tier?.name ?? "host"
            for note in try HistoryDrift.notes(options.lookup.history, target: candidate.header.manifest.name, tier: tier, metric: sides.metric) {
                StandardError.write("launchprof: drift: \(note)\n")
            }
        }
        let overBackgroundMemory = reportBackgroundMemory(candidate)
        // A tap lost during the launch is a regression of its own: the user's input went nowhere.
        let lostTaps = candidate.tapsLost
        if lostTaps > 0 {
            StandardError.write(
                "launchprof: \(lostTaps) tap\(lostTaps == 1 ? "" : "s") lost during the launch (made before the app was interactive, without queueInputDuringLaunch)\n"
            )
        }
        let undecided = undecidedRows(comparison, sides)
        if !quiet || options.adaptive.failOnInconclusive {
            for row in undecided { StandardError.write("launchprof: \(PlainText.quoted(row.path)) \(ComparisonWording.verdict(row))\n") }
        }
        return !verdict.regressions.isEmpty || !verdict.violations.isEmpty || lostTaps > 0 || overBackgroundMemory
            || (options.adaptive.failOnInconclusive && !undecided.isEmpty)
    }

    /// Dirty memory kept in the background, against the tier's budget (the app is killed first when
    /// memory runs short): named on stderr, `true` when over.
    private func reportBackgroundMemory(_ candidate: TabulatedResult) -> Bool {
        guard let tier = candidate.header.configuration?.tier, let limit = tier.backgroundMemory,
            let dirty = Summary(candidate.dirtyBytesAfterBackground.map(Double.init))?.median,
            dirty > Double(limit)
        else { return false }
        StandardError.write(
            "launchprof: over budget: dirty memory in the background on \(tier.name) is \(MemoryFormat.mebibytes(dirty)), budget \(MemoryFormat.mebibytes(Double(limit))) (try releaseCachesOnBackground)\n"
        )
        return true
    }

    /// The rows `--runs auto` left inconclusive. The sequential rule decides the launch's phases and
    /// marks; after-launch work (the background step, first uses) keeps its fixed-sample verdict and
    /// is not waited for.
    private func undecidedRows(_ comparison: Comparison, _ sides: Sides) -> [ComparisonRow] {
        guard sides.sequential != nil else { return [] }
        let afterLaunch = Set(sides.candidate.table.rows.filter(\.afterLaunch).map(\.path))
        return (comparison.rows + [comparison.total]).filter { $0.verdict == .inconclusive && !afterLaunch.contains($0.path) }
    }

    /// `launchprof check: passed…`: on stdout with `--format text`; with a machine format stdout is
    /// the document alone (a parser reads it whole), so on stderr unless `--quiet`.
    func printPassed(_ verdict: CheckVerdict, _ sides: Sides) {
        let p = options.decimals.precision
        var line = "launchprof check: passed"
        if sides.baseline != nil {
            let t = verdict.comparison.total, m = verdict.comparison.metric
            let unit = m == .instructions ? "instructions " : ""
            line +=
                ": no launch regression (total \(unit)\(ComparisonWording.quantity(t.baselineMedian, m, p)) → \(ComparisonWording.quantity(t.candidateMedian, m, p)), \(ComparisonWording.percent(t.changePercent)), \(ComparisonWording.verdict(t)))"
        }
        if options.budget != nil { line += sides.baseline == nil ? ": within budget" : "; within budget" }
        if let sequential = sides.sequential { line += "; \(sequential.pairs) runs a side (--runs auto)" }
        if options.format == .text { print(line) } else if !quiet { StandardError.write(line + "\n") }
    }
}

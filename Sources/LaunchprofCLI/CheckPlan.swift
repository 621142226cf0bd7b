import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchManifest
import LaunchRunner
import LaunchStats

/// `launchprof check`'s work, from its parsed options, in named steps: the two sides measured or read
/// (``sides()``), the candidate written (``writeCandidate(_:)``), the verdict built and exported
/// (CheckVerdict.swift), and what failed named on stderr. ``CheckCommand`` only parses and calls ``run()``.
struct CheckPlan {
    /// The options as `check` parsed them.
    let options: CheckOptions
    /// What makes each launch: a new process, or in tests a double with scripted runs.
    var executor: any LaunchExecutor = ProcessExecutor()

    /// Both sides of a check, read or measured, with what was found about them before any verdict.
    struct Sides {
        let metric: Metric
        let budget: BudgetInput?
        let candidate: TabulatedResult
        /// The candidate whole when it was made now (for `--output`).
        let madeNow: LaunchResult?
        let baseline: TabulatedResult?
        /// The sequential outcome when `--runs auto` chose the runs of an interleaved check.
        let sequential: AdaptiveCheck.Outcome?
        /// Caveats printed above the verdict and put in every export.
        let caveats: [String]
    }

    /// The check, start to end: exit 1 (``ExitStatus/regression``) when something failed.
    func run() throws {
        try OutputPath.check(options.output, option: "--output")
        try OutputPath.check(options.junit, option: "--junit")
        let sides = try sides()
        try writeCandidate(sides)
        let verdict = try verdict(sides)
        try export(verdict, sides)
        if try explainFailures(verdict, sides) { throw ExitCode(ExitStatus.regression) }
        printPassed(verdict, sides)
    }

    /// The metric, the budget, both sides and their caveats: refused (exit 2) when the sides cannot be compared.
    func sides() throws -> Sides {
        let metric = try self.metric()
        try options.functionProfile.require(metric)
        if metric == .instructions, options.budget != nil {
            throw InputError.check(.budgetOnInstructions(candidate: options.result))
        }
        let budgetInput = try options.budget.map(readBudget)
        let (candidate, madeNow, baselineResult, sequential) = try results(metric: metric)
        try requireSameMetric(candidate, baselineResult)
        try budgetInput?.checkAgainst(candidate: candidate, baseline: baselineResult)
        // An empty side is an input error, never a pass.
        if candidate.table.runCount == 0 { throw InputError.check(.noCandidateRuns(label: options.result ?? options.profile.manifest ?? "the candidate")) }
        if let baselineResult, baselineResult.table.runCount == 0 {
            throw InputError.check(.noBaselineRuns(label: options.baseline ?? options.baselineManifest ?? "the baseline"))
        }
        var caveats: [String] = []
        if let baselineResult, options.baselineManifest == nil {
            caveats = try environmentCaveats(baseline: baselineResult.header, candidate: candidate.header)
            if !quiet { StandardError.caveats(caveats) }
        }
        // A side whose machine was busy (docs/why-slow.md, busyMachine): its times are not to be trusted.
        let busy = BusyMachineCaveat.caveats(baseline: baselineResult?.header, candidate: candidate.header)
        if !quiet { StandardError.caveats(busy) }
        caveats += busy
        return Sides(
            metric: metric, budget: budgetInput, candidate: candidate, madeNow: madeNow, baseline: baselineResult, sequential: sequential,
            caveats: caveats)
    }

    /// `--output`: the candidate made now, or the one read from `--result` copied as it is.
    func writeCandidate(_ sides: Sides) throws {
        guard let output = options.output else { return }
        if let madeNow = sides.madeNow {
            try ResultFile.write(madeNow, to: output)
        } else if let result = options.result {
            try FileIO.writeAtomically(try FileIO.read(result, limit: .result), to: output)
        }
    }

    /// The runner of this command's plans: progress on a terminal unless `--quiet`.
    var runner: PlanRunner { PlanRunner(executor: executor, quiet: quiet) }

    /// What `--quiet` asked for.
    var quiet: Bool { options.profile.launch.quiet }

}

import LaunchCore
import LaunchExport
import LaunchRunner
import LaunchStats

/// How `check --metric instructions` (and `exec --metric instructions --baseline-command`) gets its two sides. Instruction counts are repeatable, so one
/// candidate run against two baseline runs suffices; the baseline's two runs show it. When a phase's
/// counts spread by more than 0.1% (a program whose work depends on time, addresses or threads), it
/// says so and both sides get ``fallbackRuns`` runs, compared with a significance test.
struct InstructionSides {
    /// Runs per side when the counts are not repeatable.
    static let fallbackRuns = 10

    /// What launches each side.
    let runner: PlanRunner

    /// Launches the baseline twice and the candidate once (more when the counts are not repeatable).
    func launch(baseline a: some LaunchPlan, candidate b: some LaunchPlan) throws -> (candidate: LaunchResult, baseline: LaunchResult) {
        var runsA = try launch(a, runs: 2)
        var runsB = try launch(b, runs: 1)
        let unstable = Comparison.nondeterministicPhases(in: a.result(runsA))
        if !unstable.isEmpty {
            warnUnstable(unstable, source: "two runs of the baseline")
            runsA += try launch(a, runs: Self.fallbackRuns - runsA.count)
            runsB += try launch(b, runs: Self.fallbackRuns - runsB.count)
        }
        return (b.result(runsB), a.result(runsA))
    }

    /// Launches the candidate against a stored baseline: once when the baseline's own runs show
    /// repeatable counts, twice when the baseline has one run (so one side shows it), as many runs as
    /// the baseline has (up to ``fallbackRuns``) when they are not repeatable.
    func launch(candidate b: some LaunchPlan, against baseline: LaunchResult, label: String) throws -> LaunchResult {
        guard baseline.runs.contains(where: { $0.instructions != nil }) else {
            throw InputError.check(.baselineWithoutInstructions(label: label))
        }
        let unstable = Comparison.nondeterministicPhases(in: baseline)
        if !unstable.isEmpty { warnUnstable(unstable, source: "the runs of the baseline \(label)") }
        let runs = unstable.isEmpty ? (baseline.runs.count >= 2 ? 1 : 2) : min(max(baseline.runs.count, 2), Self.fallbackRuns)
        var runsB = try launch(b, runs: runs)
        if runs == 2, unstable.isEmpty {
            let candidateUnstable = Comparison.nondeterministicPhases(in: b.result(runsB))
            if !candidateUnstable.isEmpty {
                warnUnstable(candidateUnstable, source: "two runs of the candidate")
                runsB += try launch(b, runs: Self.fallbackRuns - runsB.count)
            }
        }
        return b.result(runsB)
    }

    private func launch(_ plan: some LaunchPlan, runs: Int) throws -> [RunRecord] {
        try runner.records(plan, runs: runs)
    }

    private func warnUnstable(_ phases: [(path: String, spread: Double)], source: String) {
        guard !runner.quiet else { return }
        for (path, spread) in phases.prefix(5) {
            StandardError.warning(
                "the instruction count of '\(path)' is not repeatable: \(source) differ by \(SecondsFormat.format(spread * 100, precision: 2))% (more than 0.1%); comparing \(Self.fallbackRuns) runs a side with a significance test"
            )
        }
        if phases.count > 5 { StandardError.warning("… and \(phases.count - 5) more phases whose counts are not repeatable") }
    }
}

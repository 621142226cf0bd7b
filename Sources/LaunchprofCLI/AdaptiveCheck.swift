import LaunchCore
import LaunchRunner
import LaunchStats

/// `check --runs auto` with a baseline launched now: interleaved pairs of runs (``AdaptiveSession``)
/// are added until ``SequentialLook`` decides every phase and the total, or decides one of them
/// slower (the check fails then, whatever the others), or the budget (`--max-runs` a side,
/// `--max-time`) runs out. Returns both sides and the comparison with the sequential verdicts.
/// See docs/sequential.md.
struct AdaptiveCheck {
    let thresholds: Thresholds
    let budget: AdaptiveOptions
    let quiet: Bool
    /// `compare`: the rows that decide when to stop, decided both ways (``SequentialLook/symmetric``).
    var keys: Set<String>?
    /// What makes each launch (``PlanRunner``'s).
    var executor: any LaunchExecutor = ProcessExecutor()

    struct Outcome {
        var baseline: LaunchResult
        var candidate: LaunchResult
        var comparison: Comparison
        /// Runs a side.
        var pairs: Int
        /// Why the runs stopped.
        var stop: AdaptiveSession.Stop
        /// The last look: its outcome per row.
        var look: SequentialLook
    }

    func run(baseline a: some LaunchPlan, candidate b: some LaunchPlan) throws -> Outcome {
        let progress = ProgressBar(enabled: !quiet && StandardError.isTerminal)
        defer { progress.finish() }
        let session = AdaptiveSession(
            a: a.session(runs: 0, warmup: a.warmup, executor: executor), b: b.session(runs: 0, warmup: b.warmup, executor: executor),
            maxPairs: budget.maxRuns, maxSeconds: budget.maxTime)
        var sequential = SequentialLook(thresholds: thresholds, maxPairs: budget.maxRuns, keys: keys, symmetric: keys != nil)
        let runs: (a: [RunRecord], b: [RunRecord], stop: AdaptiveSession.Stop)
        runs = try session.run(progress: { progress.handle($0) }) { look in
            // Results (with their metadata) are built only when a look is due.
            guard sequential.alpha(atPairs: look.pairs, last: look.isLast) > 0 else { return look.isLast }
            return sequential.look(baseline: a.result(look.a), candidate: b.result(look.b), last: look.isLast)
        }
        let resultA = a.result(runs.a), resultB = b.result(runs.b)
        return Outcome(
            baseline: resultA, candidate: resultB, comparison: sequential.comparison(baseline: resultA, candidate: resultB),
            pairs: runs.a.count, stop: runs.stop, look: sequential)
    }
}

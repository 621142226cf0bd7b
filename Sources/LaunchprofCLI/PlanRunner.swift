import LaunchCore
import LaunchRunner
import LaunchStats

/// The one runner of launch plans: a plan alone (`run`, `record`, `exec`, `check` against a stored
/// baseline) or two plans compared (`check --baseline-manifest`, `compare`, `exec --baseline-command`),
/// interleaved for a fixed number of runs or, with `--runs auto`, until the sequential rule decides.
/// Every launch is made by ``executor``: a new process, or in tests a double with scripted runs.
/// A progress bar shows on a terminal unless `quiet`.
struct PlanRunner {
    var executor: any LaunchExecutor = ProcessExecutor()
    var quiet: Bool

    /// How the runs of a comparison are chosen: a fixed number a side, or `--runs auto`.
    enum PairSchedule {
        /// Each plan's own fixed runs, interleaved.
        case fixed
        /// Interleaved pairs until ``SequentialLook`` decides (``AdaptiveCheck``), within `budget`;
        /// `keys` (compare) are the rows that decide, both ways.
        case auto(budget: AdaptiveOptions, thresholds: Thresholds, keys: Set<String>? = nil)
    }

    /// Both sides of a comparison, and the sequential outcome when `--runs auto` chose the runs.
    struct PairOutcome {
        var baseline: LaunchResult
        var candidate: LaunchResult
        var sequential: AdaptiveCheck.Outcome?
    }

    /// Runs `plan`'s warm-ups and `runs` measured runs (its own fixed number by default) and
    /// returns the result, warnings included.
    func run(_ plan: some LaunchPlan, runs: Int? = nil) throws -> LaunchResult {
        plan.result(try records(plan, runs: runs ?? plan.runs))
    }

    /// The measured runs of `runs` launches of `plan` after its warm-ups (none for 0 runs), each
    /// spawned on `spawningThread` when one is given (`--sample`).
    func records(_ plan: some LaunchPlan, runs: Int, spawningThread: SpawningThread? = nil) throws -> [RunRecord] {
        guard runs > 0 else { return [] }
        let progress = ProgressBar(enabled: !quiet && StandardError.isTerminal)
        defer { progress.finish() }
        var session = plan.session(runs: runs, warmup: plan.warmup, executor: executor)
        session.launcher.spawningThread = spawningThread
        do {
            return try session.run { progress.handle($0) }
        } catch {
            throw plan.failure(error, pair: false)
        }
    }

    /// Runs `baseline` and `candidate` alternately as `schedule` says.
    func pair<Plan: LaunchPlan>(baseline a: Plan, candidate b: Plan, schedule: PairSchedule) throws -> PairOutcome {
        switch schedule {
        case .auto(let budget, let thresholds, let keys):
            let outcome = try AdaptiveCheck(thresholds: thresholds, budget: budget, quiet: quiet, keys: keys, executor: executor)
                .run(baseline: a, candidate: b)
            return PairOutcome(baseline: outcome.baseline, candidate: outcome.candidate, sequential: outcome)
        case .fixed:
            let progress = ProgressBar(enabled: !quiet && StandardError.isTerminal)
            defer { progress.finish() }
            do {
                let runs = try LaunchSession.interleaved(
                    a.session(runs: a.runs, warmup: a.warmup, executor: executor),
                    b.session(runs: b.runs, warmup: b.warmup, executor: executor)
                ) { progress.handle($0) }
                return PairOutcome(baseline: a.result(runs.a), candidate: b.result(runs.b))
            } catch {
                throw b.failure(error, pair: true)
            }
        }
    }
}

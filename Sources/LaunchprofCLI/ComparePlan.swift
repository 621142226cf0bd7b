import LaunchCore
import LaunchExport
import LaunchManifest
import LaunchRunner
import LaunchStats

/// `launchprof compare`'s work, in named steps: the manifest and tiers checked and the strategies
/// chosen before anything runs (``init(strategies:all:profile:adaptive:thresholds:)``), then for
/// each strategy and tier both sides launched interleaved and each measure compared (``report(precision:)``).
struct ComparePlan {
    let manifestPath: String
    let strategies: [String]
    /// The tiers to compare on; `nil` is the host.
    let tiers: [String?]
    let profile: ProfileOptions
    let adaptive: AdaptiveOptions
    let thresholds: ThresholdOptions

    /// The strategies `given` (or with `all`, every one the manifest lists), after the manifest is
    /// loaded (a bad one is refused with its own error before anything is launched) and the tiers checked.
    init(strategies given: [String], all: Bool, profile: ProfileOptions, adaptive: AdaptiveOptions, thresholds: ThresholdOptions) throws {
        let manifestPath = try profile.manifestPath()
        _ = try ManifestLoader.load(path: manifestPath)
        try profile.launch.checkTierNames()
        let strategies = all ? try StrategySwitch.strategies(inManifest: manifestPath) : given
        if strategies.isEmpty { throw ManifestError.noStrategiesListed(manifest: manifestPath) }
        self.manifestPath = manifestPath
        self.strategies = strategies
        self.tiers = profile.launch.tierNames.isEmpty ? [nil] : profile.launch.tierNames.map { $0 }
        self.profile = profile
        self.adaptive = adaptive
        self.thresholds = thresholds
    }

    /// Every strategy off and on, on every tier: one row per measure, the runs a side, and with
    /// `--runs auto` why each pair of sides stopped.
    func report(precision: Int) throws -> StrategyComparisonReport {
        let directory: String
        directory = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-compare-")
        defer { FileIO.removeTemporaryDirectory(directory) }
        let limits = try thresholds.thresholds()
        var rows: [StrategyComparisonRow] = []
        var runsASide = 0
        var notes: [String] = []
        for name in strategies {
            let pair = try StrategySwitch.make(strategy: name, manifest: manifestPath, directory: directory)
            for tier in tiers {
                let label = tier ?? "host"
                if !profile.launch.quiet && StandardError.isTerminal { StandardError.write("compare: \(name) off and on, \(label)\n") }
                let off = try launchPlan(pair, "off", tier: tier, directory: directory)
                let on = try launchPlan(pair, "on", tier: tier, directory: directory)
                let (offResult, onResult, sequential) = try measure(off: off, on: on, thresholds: limits)
                if let sequential { notes.append("\(name) on \(label): \(stopNote(sequential))") }
                runsASide = max(runsASide, min(offResult.runs.count, onResult.runs.count))
                rows += compare(name, label, off: offResult, on: onResult, sequential: sequential, thresholds: limits)
            }
        }
        var report = StrategyComparisonReport(rows: rows, runs: runsASide, precision: precision)
        report.notes = notes
        return report
    }

    /// The plan of one side (`which`: `off` or `on`) on `tier`, with a snapshot of its own. A variant
    /// the loader refuses (a strategy that needs a key the manifest lacks) is named by the user's
    /// manifest and the switch, not by the temporary copy.
    private func launchPlan(_ pair: StrategySwitch, _ which: String, tier: String?, directory: String) throws -> AppLaunchPlan {
        let path = which == "off" ? pair.off : pair.on
        var options = profile
        options.launch.tier = tier
        options.snapshot = "\(directory)/\(pair.strategy)-\(tier ?? "host")-\(which)/Loading.png"
        do { return try AppLaunchPlan(options: options, manifestPath: path) } catch {
            throw InputError.variant(manifest: manifestPath, strategy: pair.strategy, side: which, copy: path, error)
        }
    }

    /// Each measure of the strategy `name` on the tier `label`, off against on; with `--runs auto`,
    /// the sequential rule's outcome for the measures it decided.
    private func compare(
        _ name: String, _ label: String, off: LaunchResult, on: LaunchResult, sequential: AdaptiveCheck.Outcome?, thresholds limits: Thresholds
    ) -> [StrategyComparisonRow] {
        StrategyMeasure.allCases.compactMap { measure in
            guard
                var row = StrategyComparisonRow.compare(
                    strategy: name, tier: label, measure: measure, off: off, on: on, firstUse: profile.touch.first, thresholds: limits)
            else { return nil }
            if let sequential, let key = measure.sequentialKey(firstUse: profile.touch.first), let outcome = sequential.look.outcomes[key] {
                row.apply(outcome, pairs: sequential.look.pairs)
            }
            return row
        }
    }

    /// `--runs auto`: after how many pairs the runs stopped, and why.
    private func stopNote(_ outcome: AdaptiveCheck.Outcome) -> String {
        let pairs = "\(outcome.pairs) pair\(outcome.pairs == 1 ? "" : "s")"
        let undecided = outcome.look.outcomes.values.filter { $0.decision == .undecided }.count
        let left = "\(undecided) timed row\(undecided == 1 ? "" : "s") still inconclusive"
        // The session reports the last look as `decided` too: what is undecided says whether it was.
        guard undecided > 0 else { return "stopped after \(pairs): every timed row decided" }
        if outcome.stop == .maxTime || outcome.pairs < adaptive.maxRuns {
            return "stopped after \(pairs): the budget ran out (--max-time \(SecondsFormat.format(adaptive.maxTime, precision: 0)) s), \(left)"
        }
        return "stopped after \(pairs): the budget ran out (--max-runs \(adaptive.maxRuns)), \(left)"
    }

    /// Both sides' runs: interleaved fixed runs, or with `--runs auto` pairs until the sequential rule
    /// decides every timed measure (better, worse or no change: ``SequentialLook/symmetric``) or the
    /// budget runs out.
    private func measure(off: AppLaunchPlan, on: AppLaunchPlan, thresholds limits: Thresholds) throws -> (LaunchResult, LaunchResult, AdaptiveCheck.Outcome?) {
        defer { off.cleanUp(); on.cleanUp() }
        let keys = Set(StrategyMeasure.allCases.compactMap { $0.sequentialKey(firstUse: profile.touch.first) })
        let schedule = profile.launch.pairSchedule(adaptive, limits, keys: keys)
        let outcome = try PlanRunner(quiet: profile.launch.quiet).pair(baseline: off, candidate: on, schedule: schedule)
        return (outcome.baseline, outcome.candidate, outcome.sequential)
    }
}

import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchManifest
import LaunchRunner
import LaunchStats
#if canImport(Glibc)
import Glibc
#endif

/// `launchprof compare`: a strategy off and on, interleaved, on each tier, in one table.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Measure what a strategy buys: the manifest with it off and on, interleaved, on each tier.",
        discussion: """
            For each strategy and tier, the manifest is launched with the strategy off and on alternately (off on off on …, after warm-ups of each), each side with its own saved snapshot, and each measure (first frame, interactive, total, first use with --touch, background time, dirty memory, layout passes, taps lost with --tap, frames late) is compared with check's statistics: better, worse, no change or inconclusive. Turning a strategy on turns on what it needs (loadingDialog needs snapshotFirst); turning it off turns off what needs it.

            Examples:
              launchprof compare --strategy snapshotFirst
              launchprof compare --all --manifest Fixtures/heavy/manifest.json --runs 5
              launchprof compare --strategy releaseCachesOnBackground --tier host --tier iphone-3gs --resume --format markdown
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("A strategy to compare off and on (repeatable): \(StrategyCatalog.entries.map(\.key).joined(separator: ", ")).", valueName: "name"))
    var strategy: [String] = []

    @Flag(name: .long, help: "Compare every strategy the manifest's \"strategies\" lists.")
    var all = false

    @Option(name: .long, help: "Output format: \(OutputFormat.Subject.strategies.list) (default: text).", transform: OutputFormat.argument(.strategies))
    var format: OutputFormat = .text

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var adaptive: AdaptiveOptions
    @OptionGroup var thresholds: ThresholdOptions
    @OptionGroup var decimals: PrecisionOption

    func validate() throws {
        try profile.launch.requireTierForTiersFile()
        guard strategy.isEmpty != !all else { throw ValidationError(all ? "give --all or --strategy, not both" : "give --strategy NAME (repeatable) or --all") }
        for name in strategy where StrategyCatalog.entry(name) == nil {
            throw ValidationError("unknown strategy \(PlainText.quoted(name)) (strategies: \(StrategyCatalog.entries.map(\.key).joined(separator: ", ")))")
        }
        if profile.snapshot != nil { throw ValidationError("compare gives each side its own snapshot: leave out --snapshot") }
    }

    func run() throws {
        let manifestPath = try profile.manifestPath()
        // Loaded first: a bad manifest is refused with its own error before anything is launched.
        do { _ = try ManifestLoader.load(path: manifestPath) } catch { throw InputError(error) }
        try profile.launch.checkTierNames()
        let strategies = all ? try StrategySwitch.strategies(inManifest: manifestPath) : strategy
        if strategies.isEmpty { throw InputError("\(manifestPath): \"strategies\" lists none to compare (give --strategy NAME)") }
        let tiers: [String?] = profile.launch.tierNames.isEmpty ? [nil] : profile.launch.tierNames.map { $0 }
        let directory: String
        do { directory = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-compare-") } catch { throw InputError(error) }
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
                func side(_ which: String) -> ProfileOptions {
                    var options = profile
                    options.launch.tier = tier
                    options.snapshot = "\(directory)/\(name)-\(label)-\(which)/Loading.png"
                    return options
                }
                // A variant the loader refuses (a strategy that needs a key the manifest lacks) is
                // named by the user's manifest and the switch, not by the temporary copy.
                func launchProfile(_ which: String, _ path: String) throws -> AppLaunchPlan {
                    do { return try AppLaunchPlan(options: side(which), manifestPath: path) } catch {
                        throw InputError("\(manifestPath) with \(name) \(which): \(error)".replacingOccurrences(of: path, with: "the \(which) copy"))
                    }
                }
                let off = try launchProfile("off", pair.off)
                let on = try launchProfile("on", pair.on)
                let (offResult, onResult, sequential) = try measure(off: off, on: on, thresholds: limits)
                if let sequential { notes.append("\(name) on \(label): \(stopNote(sequential))") }
                runsASide = max(runsASide, min(offResult.runs.count, onResult.runs.count))
                for measure in StrategyMeasure.allCases {
                    if let row = StrategyComparisonRow.compare(
                        strategy: name, tier: label, measure: measure, off: offResult, on: onResult,
                        firstUse: profile.touch.first, thresholds: limits)
                    {
                        var row = row
                        if let sequential, let key = measure.sequentialKey(firstUse: profile.touch.first),
                            let outcome = sequential.look.outcomes[key]
                        {
                            row.apply(outcome, pairs: sequential.look.pairs)
                        }
                        rows.append(row)
                    }
                }
            }
        }
        var report = StrategyComparisonReport(rows: rows, runs: runsASide, precision: decimals.precision)
        report.notes = notes
        do { print(try report.render(format), terminator: "") } catch { throw InputError("cannot write the comparison: \(error)") }
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

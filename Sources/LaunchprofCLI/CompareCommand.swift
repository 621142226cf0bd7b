import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchManifest

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
        let plan = try ComparePlan(strategies: strategy, all: all, profile: profile, adaptive: adaptive, thresholds: thresholds)
        let report = try plan.report(precision: decimals.precision)
        do { print(try report.render(format), terminator: "") } catch { throw InputError.about(subject: "cannot write the comparison", error) }
    }
}

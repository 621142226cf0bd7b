import ArgumentParser
import LaunchCore
import LaunchExport

/// `launchprof check`'s options (``CheckPlan`` works from them): the candidate and what it is checked
/// against (a baseline, a baseline manifest, a budget), what is written where, and the shared groups
/// of a launch, a comparison and the results store.
struct CheckOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The candidate result; without it, the candidate is profiled now.", valueName: "file"))
    var result: String?

    @Option(name: .long, help: ArgumentHelp("The baseline: a result file or a git revision.", valueName: "file|revision"))
    var baseline: String?

    @Option(
        name: .customLong("baseline-manifest"), help: ArgumentHelp("Profile this manifest as the baseline, interleaved with the candidate.", valueName: "path"))
    var baselineManifest: String?

    @Option(name: .long, help: ArgumentHelp("A budget file: per tier, per phase maximum seconds.", valueName: "file"))
    var budget: String?

    @Option(name: .long, help: "Output format: \(OutputFormat.Subject.comparison.list) (default: text).", transform: OutputFormat.argument(.comparison))
    var format: OutputFormat = .text

    @Flag(name: .long, help: "With --format text, also print the comparison table (by default: one line, or the failures).")
    var table = false

    @Option(name: .long, help: ArgumentHelp("Also write JUnit XML (one test case per phase) here.", valueName: "file"))
    var junit: String?

    @Option(name: .long, help: ArgumentHelp("Also write the candidate's result document here.", valueName: "file"))
    var output: String?

    @Flag(
        name: .customLong("allow-other-environment"),
        help:
            "Compare with a stored baseline measured on another host, tier, metric or reference version anyway: the differences become caveats above the verdict and in every export (by default such a baseline is refused, exit 2)."
    )
    var allowOtherEnvironment = false

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var measure: MetricOptions
    @OptionGroup var functionProfile: FunctionOptions
    @OptionGroup var adaptive: AdaptiveOptions
    @OptionGroup var lookup: StoreLookupOptions
    @OptionGroup var thresholds: ThresholdOptions
    @OptionGroup var decimals: PrecisionOption

    func validate() throws {
        try profile.launch.requireOneTier()
        if budget == nil { try profile.launch.requireTierForTiersFile() }
        guard baseline != nil || baselineManifest != nil || budget != nil else {
            throw ValidationError("nothing to check against: give --baseline, --baseline-manifest or --budget")
        }
        guard baseline == nil || baselineManifest == nil else {
            throw ValidationError("give --baseline or --baseline-manifest, not both")
        }
        if measure.metric == .instructions, budget != nil {
            throw ValidationError("--budget limits seconds and cannot be checked with --metric instructions (run a second check for the budget)")
        }
        guard result == nil || baselineManifest == nil else {
            throw ValidationError("--baseline-manifest profiles both sides now; it cannot take --result")
        }
    }
}

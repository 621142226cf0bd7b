import ArgumentParser
import LaunchCore
import LaunchExport

/// `launchprof check`: the CI gate. Exit 1 on a real launch regression or a blown budget.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fail (exit 1) on a statistically real launch regression or a blown budget.",
        discussion: """
            The candidate is --result FILE, or a profile made now with the run options. It is compared with --baseline (a result file or a git revision in the results store) and/or checked against --budget FILE. A phase or the total has regressed when Mann-Whitney U finds the change significant (alpha 0.01) and it is larger than the threshold (5% and 2 ms by default). An improvement never fails the check.

            The baseline must have measured the same target: the built-in app on the same manifest, or the same program (its command line or --name); another is refused (exit 2). Two results made with --metric instructions (run, record or exec) are compared in instructions without --metric.

            --baseline-manifest M runs the baseline manifest and the candidate alternately (A B B A …) in one invocation, so both see the same machine state: use it when the baseline can be launched now (another build's manifest, a strategy switched off), on noisy shared machines.

            With GITHUB_ACTIONS set, regressions become ::error annotations and the markdown table is appended to $GITHUB_STEP_SUMMARY.

            Examples:
              launchprof check --baseline main
              # with the phase-by-phase table
              launchprof check --baseline main --table
              launchprof check --result pr.json --baseline main.json --format markdown
              # a program: exec --metric instructions --output head.json -- ./my-app, on each side
              launchprof check --result head.json --baseline base.json
              launchprof check --budget budgets.json --tier iphone-3gs
              launchprof check --baseline-manifest base.json --manifest pr.json --junit l.xml
            """
    )

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

    func run() throws {
        try CheckPlan(
            result: result, baseline: baseline, baselineManifest: baselineManifest, budget: budget, format: format, table: table, junit: junit,
            output: output, allowOtherEnvironment: allowOtherEnvironment, profile: profile, measure: measure, functionProfile: functionProfile,
            adaptive: adaptive, lookup: lookup, thresholds: thresholds, precision: decimals.precision
        ).run()
    }
}

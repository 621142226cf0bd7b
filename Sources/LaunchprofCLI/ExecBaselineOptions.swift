import ArgumentParser

/// `exec --baseline-command` and what goes with it: the command to compare with, `--fail-on-regression`,
/// and the thresholds and `--runs auto` budget of the comparison (``ExecComparison``).
struct ExecBaselineOptions: ParsableArguments {
    @Option(
        name: .customLong("baseline-command"),
        help: ArgumentHelp(
            "A shell command line to compare with: both run alternately (interleaved), and the comparison is printed with a verdict per measure.",
            valueName: "command"))
    var baselineCommand: String?

    @Flag(
        name: .customLong("fail-on-regression"), help: "With --baseline-command: exit 1 when the command is a real regression over the baseline, as check does."
    )
    var failOnRegression = false

    @OptionGroup var thresholds: ThresholdOptions
    @OptionGroup var adaptive: AdaptiveOptions
}

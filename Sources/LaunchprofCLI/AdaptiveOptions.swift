import ArgumentParser

/// The budget of `check --runs auto` (docs/sequential.md).
struct AdaptiveOptions: ParsableArguments {
    @Option(
        range: OptionRanges.maxRuns,
        help: "With --runs auto: at most this many runs a side, 10 to 10000 (default 200). With a stored --baseline: the most candidate runs.", valueName: "n")
    var maxRuns: Int = 200

    @Option(
        range: OptionRanges.maxTime,
        help: "With --runs auto: stop adding runs after this many seconds, 1 to 86400 (default 120); what is undecided then is reported as inconclusive.",
        valueName: "seconds")
    var maxTime: Double = 120

    @Flag(
        name: .customLong("fail-on-inconclusive"),
        help: "With --runs auto: fail (exit 1) when a phase is still undecided when the budget runs out (by default it is reported and passes).")
    var failOnInconclusive = false

    func validate() throws {
        try OptionRanges.maxRuns.check(maxRuns)
        try OptionRanges.maxTime.check(maxTime)
    }
}

import ArgumentParser

/// The budget of `check --runs auto`.
struct AdaptiveOptions: ParsableArguments {
    @Option(name: .customLong("max-runs"), help: ArgumentHelp("With --runs auto: at most this many runs a side, 10 to 10000.", valueName: "n"))
    var maxRuns: Int = 200

    @Option(name: .customLong("max-time"), help: ArgumentHelp("With --runs auto: stop adding runs after this many seconds, 1 to 86400.", valueName: "seconds"))
    var maxTime: Double = 120

    @Flag(name: .customLong("fail-on-inconclusive"), help: "With --runs auto: fail (exit 1) when a phase is still undecided when the budget runs out.")
    var failOnInconclusive = false

    static let maxRunsRange = 10...10_000
    static let maxTimeRange = 1.0...86_400.0

    func validate() throws {
        guard Self.maxRunsRange.contains(maxRuns) else { throw ValidationError("--max-runs must be from 10 to 10000, not \(maxRuns)") }
        guard Self.maxTimeRange.contains(maxTime) else { throw ValidationError("--max-time must be from 1 to 86400 seconds, not \(maxTime)") }
    }
}

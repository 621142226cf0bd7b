import ArgumentParser
import LaunchCore

extension Metric: ExpressibleByArgument {}

/// `--metric time|instructions`: shared by the commands that launch the app or a program.
struct MetricOptions: ParsableArguments {
    @Option(
        name: .customLong("metric"),
        help: ArgumentHelp(
            "What to measure: time (wall clock), or instructions (each phase's instruction count, under Valgrind's Callgrind: repeatable to a few instructions, about 50x slower; device tiers do not apply).",
            valueName: "time|instructions"))
    var given: Metric?

    /// `--metric`, else time.
    var metric: Metric { given ?? .time }

    /// `--metric`, else what `result` was measured in (a comparison of two results made with
    /// `--metric instructions` compares their counts without being told).
    func metric(of result: LaunchResult) -> Metric {
        given ?? result.configuration?.metric ?? .time
    }
}

import ArgumentParser
import LaunchCore

extension Metric: ExpressibleByArgument {}

/// `--metric time|instructions`: shared by the commands that launch the app.
struct MetricOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "What to measure: time (wall clock), or instructions (each phase's instruction count, under Valgrind's Callgrind: repeatable to a few instructions, about 50x slower; device tiers do not apply).",
            valueName: "time|instructions"))
    var metric: Metric = .time
}

import ArgumentParser
import LaunchCore

/// `--precision` of the comparison commands (`diff`, `check`, `compare`): significant digits of times (docs/report.md).
struct PrecisionOption: ParsableArguments {
    @Option(
        range: OptionRanges.precision, help: "Significant digits of times, each in the unit that fits (1.25 ms, 830 µs), 0 to 9 (default 3).", valueName: "n")
    var precision: Int = DurationFormat.defaultDigits

    func validate() throws {
        try OptionRanges.precision.check(precision)
    }
}

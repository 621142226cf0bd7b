import ArgumentParser

/// `--precision` of the comparison commands (`diff`, `check`, `compare`): decimal places of seconds.
struct PrecisionOption: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Decimal places of seconds, 0 to 9.", valueName: "n"), transform: OptionRanges.precision.parse)
    var precision: Int = 3

    func validate() throws {
        try OptionRanges.precision.check(precision)
    }
}

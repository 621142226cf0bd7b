import ArgumentParser
import LaunchCore
import LaunchExport

/// `--functions` and `--top N`: each phase's function profile from Callgrind (docs/functions.md).
/// Shared by `run`, `record`, `check` and `exec`.
struct FunctionOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "With --metric instructions: each phase's function profile from Callgrind (self and inclusive instructions and calls per function), its top functions under each phase's line, the whole profile in the result file; check and diff name the functions that changed each phase (docs/functions.md)."
        ))
    var functions = false

    @Option(range: OptionRanges.top, parsing: .next, help: "Functions listed under each phase with --functions (default 5; 1 to 100).", valueName: "n")
    var top: Int = FunctionReport.defaultTop

    /// Refuses `--functions` for a measurement in `metric` other than instructions.
    func require(_ metric: Metric) throws {
        if functions && metric != .instructions { throw InputError.refused(.functionsWithoutInstructions) }
    }

    func validate() throws {
        try OptionRanges.top.check(top)
    }
}

extension OptionRanges {
    /// `--top`: functions listed under each phase; a whole phase is `report --functions PHASE`.
    static let top = OptionRange("--top", 1...100)
}

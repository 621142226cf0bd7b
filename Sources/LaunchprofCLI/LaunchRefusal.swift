import LaunchCore

/// What a launch request asks that its target or its metric cannot do, refused before any run with
/// one message each, whatever the command (run, record, check, compare or exec) and the target
/// (the built-in app or a program). What only one target has (taps, ready conditions) is not an
/// option of the other's commands at all.
enum LaunchRefusal: Equatable, CustomStringConvertible {
    /// `--metric instructions` with a tier: instruction counts are the same on every device.
    case tierWithInstructions
    /// `--metric instructions` with `--runs auto`, which decides by timing noise.
    case autoWithInstructions
    /// `--metric instructions` with a ready condition: Callgrind counts up to the exit.
    case readinessWithInstructions
    /// `--metric instructions` with `--trace`: a trace has times, not counts.
    case traceWithInstructions
    /// `--sample` with `--metric instructions`: perf's clock samples against Valgrind's slowdown.
    case sampleWithInstructions
    /// `--functions` with a metric other than instructions: the functions come from Callgrind.
    case functionsWithoutInstructions
    /// `--enforce-memory` on a tier without a memory budget.
    case noMemoryBudget(tier: String)

    var description: String {
        switch self {
        case .tierWithInstructions:
            "--metric instructions: --tier stretches time, and an instruction count is the same on every device (leave out --tier, or measure time)"
        case .autoWithInstructions:
            "--metric instructions: --runs auto decides by timing noise; instruction counts repeat (give a number, or none: 2)"
        case .readinessWithInstructions:
            "--metric instructions: --ready-when-output, --ready-when-port and --ready-when-file end a launch before the program exits, and Callgrind counts up to its exit"
        case .traceWithInstructions:
            "--metric instructions: --trace reads phases from a trace's times, which have no instruction counts"
        case .sampleWithInstructions:
            "--sample times the launch with perf's clock samples, and --metric instructions runs it under Valgrind (50 times slower): use one or the other"
        case .functionsWithoutInstructions:
            "--functions reads each phase's functions from Callgrind, so it needs --metric instructions (a time measurement runs no Callgrind)"
        case .noMemoryBudget(let tier):
            "--enforce-memory: the tier \(tier) has no memory budget"
        }
    }

    /// The first thing `--metric instructions` cannot do among what the request asks (`readiness`
    /// and `trace`: a program's ready condition and startup trace).
    static func instructions(_ options: LaunchOptions, readiness: Bool = false, trace: Bool = false) -> LaunchRefusal? {
        if readiness { return .readinessWithInstructions }
        if options.tier != nil { return .tierWithInstructions }
        if trace { return .traceWithInstructions }
        if options.runs == .auto { return .autoWithInstructions }
        return nil
    }
}

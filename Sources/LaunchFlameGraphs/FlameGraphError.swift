import LaunchCore

/// Why a flame graph could not be drawn: the module's one error.
public enum FlameGraphError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The result has no stacks (it was not made with `--functions` or `--sample`).
    case noStacks
    /// No phase has this path or name; the phases that have stacks.
    case noPhase(String, available: [String])
    /// A differential flame graph asked of speedscope, which has none.
    case noDifferentialSpeedscope
    /// Two stack profiles (the results labelled `baseline` and `candidate`) weighed in different units.
    case unitsDiffer(baseline: String, baselineUnit: StackProfile.Unit, candidate: String, candidateUnit: StackProfile.Unit)

    public var description: String {
        switch self {
        case .noStacks:
            return "the result has no call stacks: make it with --metric instructions --functions (or --sample) to draw flame graphs"
        case .noPhase(let phase, let available):
            let list = available.map { "'\(PlainText.oneLine($0))'" }.joined(separator: ", ")
            return "no phase '\(PlainText.oneLine(phase))' has call stacks; the phases with them are \(list)"
        case .noDifferentialSpeedscope:
            return "speedscope has no differential profile: diff --flame-graph writes svg or folded"
        case .unitsDiffer(let baseline, let baselineUnit, let candidate, let candidateUnit):
            return "\(baseline) weighs stacks in \(baselineUnit.rawValue) and \(candidate) in \(candidateUnit.rawValue): they cannot be compared"
        }
    }
}

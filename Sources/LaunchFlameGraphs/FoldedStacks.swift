/// Folded stacks, the text format of Brendan Gregg's FlameGraph tools (`flamegraph.pl`,
/// `difffolded.pl`) and of inferno and speedscope: one line per stack, `root;caller;callee weight`.
public enum FoldedStacks {
    /// `phase`'s stacks, one line each, sorted by frames.
    public static func text(_ phase: PhaseStacks) -> String {
        phase.merged().stacks.map { "\(line($0.frames)) \($0.weight)\n" }.joined()
    }

    /// The two sides' stacks as `difffolded.pl` writes them: `frames baseline candidate` (0 where a
    /// side did not have the stack), for `flamegraph.pl` to draw a differential flame graph from.
    public static func differentialText(baseline: PhaseStacks, candidate: PhaseStacks) -> String {
        DifferentialStacks(baseline: baseline, candidate: candidate).stacks.map {
            "\(line($0.frames)) \($0.baseline) \($0.candidate)\n"
        }.joined()
    }

    /// The frames joined by `;`. A frame's own `;` would split it, and a line break would end the
    /// line: they are written as `:` and a space (no frame is left empty: an empty name is `?`).
    static func line(_ frames: [String]) -> String {
        frames.map(frameText).joined(separator: ";")
    }

    static func frameText(_ name: String) -> String {
        guard !name.isEmpty else { return "?" }
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case ";": out += ":"
            case "\n", "\r", "\t": out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// The stacks of two profiles of the same phase side by side: every stack either side has, with both weights.
public struct DifferentialStacks: Sendable, Equatable {
    public struct Stack: Sendable, Equatable {
        public var frames: [String]
        public var baseline: UInt64
        public var candidate: UInt64
    }

    /// Sorted by frames.
    public var stacks: [Stack]

    public init(baseline: PhaseStacks, candidate: PhaseStacks) {
        var both: [[String]: (UInt64, UInt64)] = [:]
        for stack in baseline.merged().stacks { both[stack.frames, default: (0, 0)].0 = stack.weight }
        for stack in candidate.merged().stacks { both[stack.frames, default: (0, 0)].1 = stack.weight }
        stacks = both.map { Stack(frames: $0.key, baseline: $0.value.0, candidate: $0.value.1) }
            .sorted { $0.frames.lexicographicallyPrecedes($1.frames) }
    }
}

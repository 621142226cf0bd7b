import LaunchCore

/// How one function's instructions in a phase changed between two results.
public struct FunctionChange: Equatable, Sendable {
    public var name: String
    public var inProgram: Bool
    /// Self instructions before and after (0 where the function did not run in the phase; where a
    /// side did not list it among its functions, the least that side listed: at most what it had).
    public var baselineSelf: Int
    public var candidateSelf: Int
    public var baselineInclusive: Int
    public var candidateInclusive: Int
    /// Whether the baseline listed the function (else ``baselineSelf`` is a bound, not a count).
    public var baselineListed = true

    /// The change of its self count (its own code).
    public var selfChange: Int { candidateSelf - baselineSelf }
    /// The change in percent of its baseline self count; `nil` for a function new to the phase or
    /// not listed by the baseline.
    public var selfPercent: Double? { baselineListed && baselineSelf > 0 ? Double(selfChange) / Double(baselineSelf) * 100 : nil }
}

/// The functions that changed a phase: its changes the largest self change first.
public struct PhaseFunctionChanges: Equatable, Sendable {
    public var phase: String
    public var functions: [FunctionChange]
}

/// Function-level diffs: which functions made a phase's count change.
public enum FunctionDiff {
    /// The functions whose self instructions in phase `path` changed, the largest change (either
    /// way) first, at most `limit`; `nil` when either side has no profile for the phase. A function
    /// one side did not list counts as 0 there when that side listed every function, else as the
    /// least that side listed (at most what it had: the change stated is then the smallest it can
    /// be), and is left out when even its direction is unknown.
    public static func changes(phase path: String, baseline: FunctionProfiles, candidate: FunctionProfiles, limit: Int) -> PhaseFunctionChanges? {
        guard let before = baseline.phase(path), let after = candidate.phase(path) else { return nil }
        let old = index(before), new = index(after)
        let unlisted = (old: Self.unlistedBound(before), new: Self.unlistedBound(after))
        var changes: [FunctionChange] = []
        for key in Set(old.keys).union(new.keys) {
            let a = old[key], b = new[key]
            let was = a?.selfCost ?? unlisted.old, now = b?.selfCost ?? unlisted.new
            // Not listed by a side that left functions out, and within what it could have had there: no direction to state.
            if a == nil && unlisted.old > 0 && now <= was { continue }
            if b == nil && unlisted.new > 0 && was <= now { continue }
            var change = FunctionChange(
                name: key.name, inProgram: key.inProgram, baselineSelf: was, candidateSelf: now,
                baselineInclusive: a?.inclusiveCost ?? 0, candidateInclusive: b?.inclusiveCost ?? 0)
            change.baselineListed = a != nil || unlisted.old == 0
            if change.selfChange != 0 { changes.append(change) }
        }
        changes.sort {
            abs($0.selfChange) != abs($1.selfChange) ? abs($0.selfChange) > abs($1.selfChange) : $0.name < $1.name
        }
        return PhaseFunctionChanges(phase: path, functions: Array(changes.prefix(max(0, limit))))
    }

    /// The most self instructions a function a phase did not list can have had there: 0 when it
    /// listed every function, else the least it listed.
    static func unlistedBound(_ phase: PhaseFunctions) -> Int {
        phase.functions.count == phase.functionCount ? 0 : phase.functions.map(\.selfCost).min() ?? 0
    }

    private struct Key: Hashable {
        var name: String
        var inProgram: Bool
    }

    private static func index(_ phase: PhaseFunctions) -> [Key: FunctionCost<InstructionUnit>] {
        var out: [Key: FunctionCost<InstructionUnit>] = [:]
        for cost in phase.functions {
            let key = Key(name: cost.name, inProgram: cost.inProgram)
            if var known = out[key] {
                known.selfCost = CallgrindProfile.Costs.sum(known.selfCost, cost.selfCost)
                known.inclusiveCost = max(known.inclusiveCost, cost.inclusiveCost)
                out[key] = known
            } else {
                out[key] = cost
            }
        }
        return out
    }
}

/// Call stacks with weights, per phase of a launch: what every flame graph is drawn from. Callgrind's
/// call graph (`--functions`) and perf's samples (`--sample`) are both turned into one of these.
public struct StackProfile: Sendable, Equatable {
    /// What a stack's weight counts.
    public enum Unit: String, Sendable, Equatable, CaseIterable {
        /// Instructions executed (Callgrind).
        case instructions
        /// Samples taken while the stack was running (perf).
        case samples
        /// Nanoseconds of wall or CPU time.
        case nanoseconds
    }

    public var unit: Unit
    /// One entry per phase path, in the launch's order.
    public var phases: [PhaseStacks]

    public init(unit: Unit, phases: [PhaseStacks]) {
        self.unit = unit
        self.phases = phases
    }

    /// The phase with this path (`drawing/keys`), if any.
    public func phase(_ path: String) -> PhaseStacks? {
        phases.first { $0.phase == path }
    }

    /// The whole launch as one phase: every top-level phase's stacks under a root frame named after the
    /// phase (nested phases are inside their parents' stacks already, so they are not added again).
    public func wholeLaunch(named name: String = StackProfile.wholeLaunchName) -> PhaseStacks {
        var stacks: [WeightedStack] = []
        for phase in phases where !phase.phase.contains("/") {
            for stack in phase.stacks {
                stacks.append(WeightedStack(frames: [phase.phase] + stack.frames, weight: stack.weight))
            }
        }
        return PhaseStacks(phase: name, stacks: stacks).merged()
    }
}

/// One phase's stacks.
public struct PhaseStacks: Sendable, Equatable {
    /// The phase's path, `parent/child` as in a result's phases.
    public var phase: String
    public var stacks: [WeightedStack]

    public init(phase: String, stacks: [WeightedStack]) {
        self.phase = phase
        self.stacks = stacks
    }

    /// The sum of the stacks' weights (saturating).
    public var totalWeight: UInt64 {
        stacks.reduce(0) { sum, stack in
            let (s, overflow) = sum.addingReportingOverflow(stack.weight)
            return overflow ? .max : s
        }
    }

    /// Equal stacks added up, stacks of weight 0 and without frames dropped, sorted by frames (the order
    /// folded-stack files use), so that two profiles of the same work compare equal.
    public func merged() -> PhaseStacks {
        var weights: [[String]: UInt64] = [:]
        for stack in stacks where stack.weight > 0 && !stack.frames.isEmpty {
            let (s, overflow) = weights[stack.frames, default: 0].addingReportingOverflow(stack.weight)
            weights[stack.frames] = overflow ? .max : s
        }
        let sorted = weights.map { WeightedStack(frames: $0.key, weight: $0.value) }
            .sorted { $0.frames.lexicographicallyPrecedes($1.frames) }
        return PhaseStacks(phase: phase, stacks: sorted)
    }
}

/// A call stack, root first (`main` before what it called), and what ran with exactly that stack.
public struct WeightedStack: Sendable, Equatable, Hashable {
    /// The frames, root first: the last one is where the weight was spent.
    public var frames: [String]
    /// Instructions, samples or nanoseconds (the profile's ``StackProfile/Unit``).
    public var weight: UInt64

    public init(frames: [String], weight: UInt64) {
        self.frames = frames
        self.weight = weight
    }
}

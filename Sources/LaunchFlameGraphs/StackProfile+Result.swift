import LaunchCore

extension StackProfile {
    /// The name of the whole launch's profile (every top-level phase under its own root frame).
    public static let wholeLaunchName = "whole launch"

    /// A result's stored stacks (``ResultStacks``) as a profile, or `nil` for a result without them.
    public init?(_ result: LaunchResult) {
        guard let stored = result.stacks else { return nil }
        self.init(stored)
    }

    /// The stored form's stacks with their frame names.
    public init(_ stored: ResultStacks) {
        let unit = Unit(rawValue: stored.unit) ?? .instructions
        let phases = stored.phases.map { phase in
            PhaseStacks(
                phase: phase.phase,
                stacks: phase.stacks.map { stack in
                    WeightedStack(frames: stack.frames.map { $0 < stored.frames.count ? stored.frames[$0] : "?" }, weight: UInt64(max(0, stack.weight)))
                })
        }
        self.init(unit: unit, phases: phases)
    }

    /// The stored form of this profile, for a result (`run` is the run it is from), each phase's
    /// heaviest ``ResultStacks/maximumStacksPerPhase`` stacks, cut at ``ResultStacks/maximumDepth`` frames.
    public func stored(run: Int, reconstructed: Bool) -> ResultStacks {
        var names: [String] = []
        var numbers: [String: Int] = [:]
        let phases = phases.map { phase in
            let heaviest = phase.merged().stacks.sorted { $0.weight > $1.weight }.prefix(ResultStacks.maximumStacksPerPhase)
            return ResultStacks.Phase(
                phase: phase.phase,
                stacks: heaviest.map { stack in
                    let frames = stack.frames.prefix(ResultStacks.maximumDepth).map { name in
                        if let known = numbers[name] { return known }
                        numbers[name] = names.count
                        names.append(name)
                        return names.count - 1
                    }
                    return ResultStacks.Stack(weight: Int(min(stack.weight, UInt64(Int.max))), frames: frames)
                })
        }
        return ResultStacks(run: run, unit: unit.rawValue, reconstructed: reconstructed, frames: names, phases: phases)
    }

    /// The phase a user named: its path (`drawing/keys`) or, when no path matches, its name if only one
    /// phase has it.
    public func phase(named name: String) throws(FlameGraphError) -> PhaseStacks {
        if let found = phase(name) { return found }
        let named = phases.filter { $0.phase.split(separator: "/").last.map(String.init) == name }
        if named.count == 1 { return named[0] }
        throw .noPhase(name, available: phases.map(\.phase))
    }

    /// What a flame graph of this profile shows: the named phase alone, or (`nil`) the whole launch
    /// followed by every phase.
    public func selection(_ name: String?) throws(FlameGraphError) -> [PhaseStacks] {
        guard !phases.isEmpty else { throw .noStacks }
        if let name { return [try phase(named: name).merged()] }
        return [wholeLaunch(named: Self.wholeLaunchName)] + phases.map { $0.merged() }
    }
}

import ArgumentParser
import LaunchCore
import LaunchFlameGraphs

/// `--flame-graph FORMAT [--phase PHASE]` of `report` (a result's flame graphs) and `diff` (the
/// differential one), docs/flame-graphs.md.
struct FlameGraphOptions: ParsableArguments {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case folded, speedscope, svg
    }

    @Option(
        name: .customLong("flame-graph"),
        help: ArgumentHelp(
            "Write flame graphs of a result made with --functions: folded (stacks for flamegraph.pl), speedscope (JSON) or svg (launchprof's own, with a phase picker). diff: svg or folded, differential.",
            valueName: "format"))
    var format: Format?

    @Option(
        name: .customLong("phase"),
        help: ArgumentHelp(
            "With --flame-graph: only this phase (its path, or its name when only one phase has it); default: the whole launch (folded), or the whole launch and every phase.",
            valueName: "phase"))
    var phase: String?

    func validate() throws {
        if phase != nil, format == nil { throw ValidationError("--phase chooses the phase of --flame-graph: give --flame-graph too") }
    }

    /// The flame graphs of `result` (read from `path`) in the chosen format.
    func render(_ result: LaunchResult, path: String) throws -> String {
        guard let profile = StackProfile(result) else { throw InputError.about(subject: path, FlameGraphError.noStacks) }
        let selected: [PhaseStacks]
        do { selected = try profile.selection(phase) } catch { throw InputError.about(subject: path, error) }
        let title =
            "Flame graph of \(path) (\(profile.unit.rawValue)\(result.stacks?.reconstructed == true ? ", stacks reconstructed from Callgrind's call graph" : ""))"
        switch format {
        case .folded?, nil: return FoldedStacks.text(selected[0])
        case .speedscope?: return SpeedscopeProfile.json(selected, unit: profile.unit, name: path)
        case .svg?: return FlameGraphSVG().svg(selected, unit: profile.unit, title: title)
        }
    }

    /// The differential flame graphs of `baseline` to `candidate` (labelled as the user named them).
    func renderDifference(_ baseline: LaunchResult, _ candidate: LaunchResult, labels: (String, String)) throws -> String {
        guard format != .speedscope else { throw FlameGraphError.noDifferentialSpeedscope }
        guard let before = StackProfile(baseline) else { throw InputError.about(subject: labels.0, FlameGraphError.noStacks) }
        guard let after = StackProfile(candidate) else { throw InputError.about(subject: labels.1, FlameGraphError.noStacks) }
        guard before.unit == after.unit else {
            throw FlameGraphError.unitsDiffer(baseline: labels.0, baselineUnit: before.unit, candidate: labels.1, candidateUnit: after.unit)
        }
        let candidates: [PhaseStacks]
        do { candidates = try after.selection(phase) } catch { throw InputError.about(subject: labels.1, error) }
        // Without --phase the first graph is the whole launch; a phase the baseline lacks is all new.
        let pairs = candidates.enumerated().map { index, stacks in
            let base = phase == nil && index == 0 ? before.wholeLaunch() : before.phase(stacks.phase) ?? PhaseStacks(phase: stacks.phase, stacks: [])
            return (baseline: base, candidate: stacks)
        }
        if format == .folded { return FoldedStacks.differentialText(baseline: pairs[0].baseline, candidate: pairs[0].candidate) }
        let title = "Differential flame graph: \(labels.0) → \(labels.1) (\(after.unit.rawValue); red grew, blue shrank)"
        return FlameGraphSVG().differentialSVG(pairs, unit: after.unit, title: title)
    }
}

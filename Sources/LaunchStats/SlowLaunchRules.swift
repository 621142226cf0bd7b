import LaunchCore

/// The rules behind `Why it is slow` (docs/why-slow.md): big-ticket items of a timed launch, each
/// found against a fixed threshold and naming what to try, as Perfetto's startup analysis names
/// reasons. Rules read medians over the runs; a rule that fires in no run stays silent.
public enum SlowLaunchRule: String, CaseIterable, Sendable {
    /// A top-level launch phase whose main thread waited for a CPU more than this share of its time
    /// (docs/counters.md): the run's times are the machine's load as much as the launch.
    case busyMachine
    /// Outermost `decode` phases on the main thread, as a share of the launch.
    case decodeOnMainThread
    /// Outermost `io` phases on the main thread, as a share of the launch.
    case blockingIOOnMainThread
    /// More layout passes than orientations laid out (counts `layout passes`, `orientations laid out`).
    case repeatedLayout
    /// The `first frame` mark later than a user waits without doubt.
    case lateFirstFrame
    /// A stage the app ran at launch and did not use before interactive (counts `unused at launch:
    /// <name>`), taking at least this share of the launch.
    case unusedAtLaunch
    /// A lazy stage's first use (`--touch`) slower than this many seconds, not preloaded.
    case slowFirstUse
    /// A cold launch (`--cold`) with major page faults or files read from storage: they are named.
    case coldFaults
    /// Top-level phases each a sliver of the launch: where not to look (only with another reason).
    case notWorthOptimising

    /// The rule's threshold: a share of the launch (0…1), seconds, or a count.
    public var threshold: Double {
        switch self {
        case .busyMachine: 0.15
        case .coldFaults: 0
        case .decodeOnMainThread: 0.20
        case .blockingIOOnMainThread: 0.20
        case .repeatedLayout: 1
        case .lateFirstFrame: 0.4
        case .unusedAtLaunch: 0.02
        case .slowFirstUse: 0.1
        case .notWorthOptimising: 0.02
        }
    }

    /// This rule's finding: `value` measured against ``threshold``, and the message that says what to try.
    func reason(_ value: Double, _ message: String) -> SlowReason {
        SlowReason(rule: rawValue, value: value, threshold: threshold, message: message)
    }
}

/// Applies every ``SlowLaunchRule`` to a result's runs.
public enum SlowLaunchDiagnosis {
    /// Counters named `unused at launch: <stage>`, one per stage the app loaded and did not use.
    public static let unusedAtLaunchPrefix = AppInterface.unusedAtLaunchCounterPrefix

    /// The reasons, in the order of ``SlowLaunchRule``; empty when none fired or there are no runs.
    public static func reasons(_ runs: [RunRecord]) -> [SlowReason] {
        guard let total = median(runs.map(\.total)), total > 0 else { return [] }
        var reasons: [SlowReason] = busyMachine(runs).map { [$0] } ?? []
        reasons += mainThreadWork(runs)
        if let layout = repeatedLayout(runs) { reasons.append(layout) }
        if let firstFrame = lateFirstFrame(runs) { reasons.append(firstFrame) }
        reasons += unusedAtLaunch(runs)
        reasons += slowFirstUses(runs)
        if let cold = coldFaults(runs) { reasons.append(cold) }
        // Where not to look, when something said where to: a busy machine says nothing of the launch.
        if reasons.contains(where: { $0.rule != SlowLaunchRule.busyMachine.rawValue }), let small = notWorthOptimising(runs) {
            reasons.append(small)
        }
        return reasons
    }

    /// `84%`: a share of the launch in whole percent (as it is when too large to round).
    static func percent(_ share: Double) -> String { share.isFinite && abs(share) < 1e12 ? "\(Int((share * 100).rounded()))%" : "\(share * 100)%" }

    /// The median over the runs of `seconds(run)` as a share of the run's launch total.
    static func medianShare(_ runs: [RunRecord], _ seconds: (RunRecord) -> Double) -> Double? {
        median(runs.map { seconds($0) / max($0.total, .leastNonzeroMagnitude) })
    }

    /// Decoding and file I/O on the main thread over their rules' shares of the launch.
    static func mainThreadWork(_ runs: [RunRecord]) -> [SlowReason] {
        [
            (
                SlowLaunchRule.decodeOnMainThread, PhaseKind.decode, "decoding",
                "try backgroundDecode (decode on worker threads, draw placeholders first), or decode fewer or smaller images at launch"
            ),
            (.blockingIOOnMainThread, .io, "file I/O", "defer it (a lazy stage) or move it off the main thread")
        ].compactMap { rule, kind, finding, advice in
            guard let share = medianShare(runs, { mainThreadSeconds(of: kind, in: $0) }), share > rule.threshold else { return nil }
            var advice = advice
            // With backgroundDecode on, the advice is not to turn it on: say what still decodes on the main thread.
            if kind == .decode, let run = runs.first, run.counter(AppInterface.imagesQueuedForWorkersCounter) != nil {
                let largest = largestMainThreadPhase(of: kind, in: run).map { " is '\($0)'" } ?? " is not an image of the theme"
                advice =
                    "the images already decode on worker threads (backgroundDecode); the largest decode left on the main thread\(largest): make it smaller, or show less before the first frame"
            }
            return rule.reason(share, "\(finding) took \(percent(share)) of the launch on the main thread (over \(percent(rule.threshold))): \(advice)")
        }
    }

    /// More layout passes than orientations laid out.
    static func repeatedLayout(_ runs: [RunRecord]) -> SlowReason? {
        let rule = SlowLaunchRule.repeatedLayout
        guard let passes = median(runs.compactMap { $0.counter("layout passes").map(Double.init) }),
            let orientations = median(runs.compactMap { $0.counter("orientations laid out").map(Double.init) }), orientations > 0,
            passes / orientations > rule.threshold
        else { return nil }
        return rule.reason(
            passes / orientations,
            "\(Int(passes)) layout passes for \(Int(orientations)) orientation\(orientations == 1 ? "" : "s"): try coalescedLayout (one pass after all the settings)"
        )
    }

    /// The first frame later than the rule's seconds: show the saved snapshot first, or, when it is
    /// shown first already, the largest phase before it.
    static func lateFirstFrame(_ runs: [RunRecord]) -> SlowReason? {
        let rule = SlowLaunchRule.lateFirstFrame
        let firstFrames = runs.compactMap { $0.marks.first { $0.name == AppInterface.firstFrameMark }?.time }
        guard let firstFrame = median(firstFrames), firstFrame > rule.threshold else { return nil }
        let showsSavedFrame = runs.contains { run in ["snapshot shown", "splash shown", "stale snapshot ignored"].contains { run.counter($0) != nil } }
        let advice: String
        if showsSavedFrame, let before = largestPhase(before: firstFrame, in: runs) {
            advice = "the saved snapshot is shown first already; the largest phase before it is '\(before)'"
        } else {
            advice = "try snapshotFirst (show the snapshot saved when the app last left, then initialise)"
        }
        return rule.reason(firstFrame, "first frame at \(DurationFormat.format(firstFrame)) (over \(DurationFormat.format(rule.threshold))): \(advice)")
    }

    /// Stages run at launch, unused before interactive in every run, each over the rule's share.
    static func unusedAtLaunch(_ runs: [RunRecord]) -> [SlowReason] {
        guard let first = runs.first else { return [] }
        let rule = SlowLaunchRule.unusedAtLaunch
        return first.counters.compactMap { counter in
            guard counter.name.hasPrefix(unusedAtLaunchPrefix) && counter.value > 0,
                runs.allSatisfy({ ($0.counter(counter.name) ?? 0) > 0 })
            else { return nil }
            let stage = String(counter.name.dropFirst(unusedAtLaunchPrefix.count))
            guard let share = medianShare(runs, { topLevelSeconds(stage, in: $0) }), share >= rule.threshold else { return nil }
            return rule.reason(share, "'\(stage)' ran at launch (\(percent(share)) of it) but nothing used it before interactive: make it lazy")
        }
    }

    /// The top-level phases each under the rule's share of the launch: where not to look.
    static func notWorthOptimising(_ runs: [RunRecord]) -> SlowReason? {
        let rule = SlowLaunchRule.notWorthOptimising
        let names = first(runs)?.phases.filter { $0.depth == 0 && !$0.afterLaunch }.map(\.name) ?? []
        let small = names.filter { name in (medianShare(runs) { topLevelSeconds(name, in: $0) } ?? 1) < rule.threshold }
        guard !small.isEmpty else { return nil }
        let listed = small.prefix(4).map { "'\($0)'" }.joined(separator: ", ") + (small.count > 4 ? " and \(small.count - 4) more" : "")
        return rule.reason(
            Double(small.count),
            "\(small.count) phase\(small.count == 1 ? "" : "s") under \(percent(rule.threshold)) of the launch each (\(listed)): not worth optimising"
        )
    }

    /// Seconds of the outermost phases of `kind` on the main thread during the launch, process start
    /// and the presented saved frame aside: a phase inside another of the same kind is not counted twice.
    static func mainThreadSeconds(of kind: PhaseKind, in run: RunRecord) -> Double {
        mainThreadPhases(of: kind, in: run).reduce(0) { $0 + $1.duration }
    }

    /// The outermost phases of `kind` on the main thread during the launch, but for process start
    /// (exec to main: the loader's work, nothing to defer there) and, for decoding, what is inside
    /// `showing snapshot` (the first frame itself, judged by the first-frame rule).
    static func mainThreadPhases(of kind: PhaseKind, in run: RunRecord) -> [PhaseRecord] {
        func excluded(_ phase: PhaseRecord) -> Bool {
            phase.depth == 0 && (phase.name == ProtocolParser.processStartPhase || (kind == .decode && phase.name == AppInterface.showingSnapshotPhase))
        }
        var found: [PhaseRecord] = []
        for (i, phase) in run.phases.enumerated() where phase.kind == kind && phase.thread == 0 && !phase.afterLaunch && !excluded(phase) {
            var parent = phase.parent, counted = true, steps = 0
            while let p = parent, p >= 0, p < i, steps <= run.phases.count {
                if run.phases[p].kind == kind || excluded(run.phases[p]) { counted = false; break }
                parent = run.phases[p].parent
                steps += 1
            }
            if counted { found.append(phase) }
        }
        return found
    }

    /// The name of the longest outermost phase of `kind` on the main thread during the launch.
    static func largestMainThreadPhase(of kind: PhaseKind, in run: RunRecord) -> String? {
        mainThreadPhases(of: kind, in: run).max { $0.duration < $1.duration }?.name
    }

    /// Seconds of the top-level launch phases named `name` in `run`.
    static func topLevelSeconds(_ name: String, in run: RunRecord) -> Double {
        run.phases.filter { $0.depth == 0 && !$0.afterLaunch && $0.name == name }.reduce(0) { $0 + $1.duration }
    }

    /// The name of the longest top-level launch phase that ended by `time` in the first run.
    static func largestPhase(before time: Double, in runs: [RunRecord]) -> String? {
        first(runs)?.phases.filter { $0.depth == 0 && !$0.afterLaunch && $0.end <= time + 1e-9 }.max { $0.duration < $1.duration }?.name
    }

    private static func first(_ runs: [RunRecord]) -> RunRecord? { runs.first }

    private static func median(_ values: [Double]) -> Double? { Summary(values)?.median }

}

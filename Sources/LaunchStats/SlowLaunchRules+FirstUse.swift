import LaunchCore

extension SlowLaunchDiagnosis {
    /// The ``SlowLaunchRule/slowFirstUse`` reasons: each deferred stage whose first use (its
    /// top-level after-launch phase, `--touch`) took longer than the threshold, median over the
    /// runs that used it, and that no run preloaded (counter `first use preloaded`).
    static func slowFirstUses(_ runs: [RunRecord]) -> [SlowReason] {
        let rule = SlowLaunchRule.slowFirstUse
        guard let first = runs.first, !runs.contains(where: { ($0.counter("first use preloaded") ?? 0) > 0 }) else { return [] }
        var reasons: [SlowReason] = []
        for stage in first.deferred {
            let durations = runs.compactMap { run in
                run.phases.first { $0.depth == 0 && $0.afterLaunch && $0.background != true && $0.name == stage }?.duration
            }
            guard let median = Summary(durations)?.median, median > rule.threshold else { continue }
            reasons.append(
                rule.reason(
                    median,
                    "the first use of '\(stage)' took \(DurationFormat.format(median)) (over \(DurationFormat.format(rule.threshold))): try preload (prepare it on a worker thread under the launch animation)"
                ))
        }
        return reasons
    }

}

import LaunchCore

/// Analyses of one run's phases: self time, and the critical path that decided the total.
public enum PhaseAnalysis {
    /// Each phase's self time: its duration less the time covered by its direct children.
    public static func selfTimes(_ run: RunRecord) -> [Double] {
        var children = [Double](repeating: 0, count: run.phases.count)
        for phase in run.phases {
            if let parent = phase.parent, parent < children.count { children[parent] += phase.duration }
        }
        return run.phases.enumerated().map { max(0, $1.duration - children[$0]) }
    }

    /// The chain of top-level launch phases that decided the total, first to last: starting from the
    /// phase that ends last, each step goes to the phase (on any thread) that ended latest before the
    /// current one began — the one it waited for. For sequential phases this is every top-level phase;
    /// with concurrent ones, phases that overlapped and ended earlier drop out.
    public static func criticalPath(_ run: RunRecord) -> [Int] {
        let candidates = run.phases.indices.filter { run.phases[$0].depth == 0 && !run.phases[$0].afterLaunch }
        guard var current = candidates.max(by: { run.phases[$0].end < run.phases[$1].end }) else { return [] }
        var chain = [current]
        let tolerance = 1e-6
        while true {
            let start = run.phases[current].start
            let before = candidates.filter { $0 != current && run.phases[$0].end <= start + tolerance && !chain.contains($0) }
            guard let previous = before.max(by: { run.phases[$0].end < run.phases[$1].end }) else { break }
            chain.append(previous)
            current = previous
        }
        return chain.reversed()
    }

    /// The index of the run whose total is the median (the lower middle one for an even count).
    public static func medianRun(_ result: LaunchResult) -> Int {
        let order = result.runs.indices.sorted { result.runs[$0].total < result.runs[$1].total }
        return order.isEmpty ? 0 : order[(order.count - 1) / 2]
    }
}

import LaunchCore

/// Analyses of one run's phases: self time, and the critical path that decided the total.
public enum PhaseAnalysis {
    /// Each phase's self time: its duration less the time covered by its direct children.
    public static func selfTimes(_ run: RunRecord) -> [Double] {
        var children = [Double](repeating: 0, count: run.phases.count)
        for phase in run.phases {
            if let parent = phase.parent, parent >= 0, parent < children.count { children[parent] += phase.duration }
        }
        return run.phases.enumerated().map { max(0, $1.duration - children[$0]) }
    }

    /// A phase's median self time and median duration over the runs, by path (`drawing/keys`).
    public struct SelfTime: Equatable, Sendable {
        public var path: String
        /// The median of the runs' self times (duration less the direct children's), in seconds.
        public var selfTime: Double
        /// The median duration (self time and children), in seconds.
        public var inclusive: Double
    }

    /// Every phase path of `runs` with its median self and inclusive time, in the order the paths
    /// first came (a path seen twice in a run counts each time).
    public static func selfTimeMedians(_ runs: [RunRecord]) -> [SelfTime] {
        // Rows by path (``PhasePathIndex``: a path built once per row, not once per phase).
        var index = PhasePathIndex()
        var selfTimes: [[Double]] = [], inclusive: [[Double]] = []
        for run in runs {
            let selfs = PhaseAnalysis.selfTimes(run)
            for (i, row) in index.rows(of: run.phases).enumerated() {
                if row == selfTimes.count {
                    selfTimes.append([])
                    inclusive.append([])
                }
                selfTimes[row].append(selfs[i])
                inclusive[row].append(run.phases[i].duration)
            }
        }
        return index.paths.indices.compactMap { row in
            guard let s = Summary(selfTimes[row]), let total = Summary(inclusive[row]) else { return nil }
            return SelfTime(path: index.paths[row], selfTime: s.median, inclusive: total.median)
        }
    }

    /// The chain of top-level launch phases that decided the total, first to last: starting from the
    /// phase that ends last, each step goes to the phase (on any thread) that ended latest before the
    /// current one began — the one it waited for (the earliest-listed one on a tie). For sequential
    /// phases this is every top-level phase; with concurrent ones, phases that overlapped and ended
    /// earlier drop out.
    ///
    /// O(n log n) in phases: the candidates are sorted by end once; each step is a binary search for
    /// the latest end before the current start, and phases already in the chain are skipped with a
    /// union-find "nearest one still free to the left" (nearly constant time per step). Phases whose
    /// start or end is not finite never take part.
    public static func criticalPath(_ run: RunRecord) -> [Int] {
        let phases = run.phases
        // By end ascending, then index descending: the last of any prefix is the latest end, and of
        // equal ends the earliest-listed phase.
        let order = phases.indices
            .filter { phases[$0].depth == 0 && !phases[$0].afterLaunch && phases[$0].start.isFinite && phases[$0].end.isFinite }
            .sorted { phases[$0].end != phases[$1].end ? phases[$0].end < phases[$1].end : $0 > $1 }
        guard let last = order.last else { return [] }
        // free[k + 1] leads to the nearest position ≤ k not yet in the chain (0: none).
        var free = Array(0...order.count)
        func nearestFree(_ position: Int) -> Int {
            var root = position + 1
            while free[root] != root { root = free[root] }
            var node = position + 1
            while free[node] != root {
                let next = free[node]
                free[node] = root
                node = next
            }
            return root - 1
        }
        func take(_ position: Int) { free[position + 1] = position }
        var current = last
        take(order.count - 1)
        var chain = [current]
        let tolerance = 1e-6
        while true {
            let limit = phases[current].start + tolerance
            // The number of candidates ending at or before the limit (binary search over `order`).
            var low = 0, high = order.count
            while low < high {
                let mid = (low + high) / 2
                if phases[order[mid]].end <= limit { low = mid + 1 } else { high = mid }
            }
            guard low > 0 else { break }
            let position = nearestFree(low - 1)
            guard position >= 0 else { break }
            take(position)
            current = order[position]
            chain.append(current)
        }
        return chain.reversed()
    }

    /// The index of the run whose total is the median (the lower middle one for an even count).
    public static func medianRun(_ result: LaunchResult) -> Int {
        let order = result.runs.indices.sorted { result.runs[$0].total < result.runs[$1].total }
        return order.isEmpty ? 0 : order[(order.count - 1) / 2]
    }
}

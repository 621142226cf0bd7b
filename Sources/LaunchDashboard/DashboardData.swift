import LaunchChangePoints
import LaunchHistory

/// What a dashboard shows: the commits in history order and, per environment, tier, metric and
/// target (a group), each series' per-commit medians and change points. Built from the series and
/// change points `history detect` reads and finds; written into the page as JSON (``DashboardJSON``).
public struct DashboardData: Equatable, Sendable {
    /// One commit, oldest first.
    public struct Commit: Equatable, Sendable {
        public var hash: String
        /// Its first parent, when git said.
        public var parent: String?
        /// Its commit date (else author date), when git said.
        public var date: String?
    }

    /// One change point, at a position of its group's commits.
    public struct Step: Equatable, Sendable {
        /// The position in ``Group/commits`` of the commit the step begins at.
        public var position: Int
        public var commit: String
        public var before: Double
        public var after: Double
        /// after / before - 1, `nil` when before is 0.
        public var change: Double?
        public var pValue: Double
    }

    /// One chart: a phase (or launch total, mark, peak memory) across its group's commits.
    public struct Series: Equatable, Sendable {
        public var phase: String
        /// `s` (seconds), `instructions` or `bytes`.
        public var unit: String
        public var exact: Bool
        /// One per group commit: the median of that commit's runs, `nil` where it has none.
        public var values: [Double?]
        /// One per group commit: how many runs the median is of (0 where none).
        public var runs: [Int]
        public var steps: [Step]
    }

    /// The series of one environment, tier, metric and target.
    public struct Group: Equatable, Sendable {
        public var environment: String
        public var tier: String
        public var metric: String
        public var target: String
        /// Indices into ``DashboardData/commits``, in history order.
        public var commits: [Int]
        /// Launch-level series first (launch total, marks, peak memory), then phases in key order.
        public var series: [Series]
    }

    public var title: String
    /// Where the results were read, for the page's header.
    public var source: String
    public var commits: [Commit]
    /// Environment key to the host in words.
    public var environments: [String: String]
    public var groups: [Group]

    /// The dashboard of `series` with their change points (`detected[i]` of `series[i]`), commits in
    /// `order` (every commit a series names must be in it). Commits no series names are left out.
    public init(
        title: String, source: String, order: [CommitInfo], environments: [String: String], series: [ChangePointSeries],
        detected: [SeriesChangePoints]
    ) throws(DashboardError) {
        guard series.count == detected.count else { throw .mismatched(series: series.count, detected: detected.count) }
        var rank: [String: Int] = [:]
        for (i, commit) in order.enumerated() where rank[commit.hash] == nil { rank[commit.hash] = i }
        var byGroup: [SeriesKey: [(ChangePointSeries, SeriesChangePoints)]] = [:]
        for (one, found) in zip(series, detected) {
            for point in one.points where rank[point.commit] == nil { throw .unorderedCommit(point.commit, phase: one.key.phase) }
            byGroup[Self.groupKey(one.key), default: []].append((one, found))
        }
        let keys = byGroup.keys.sorted()
        let groupRanks = keys.map { key in Set(byGroup[key]!.flatMap { $0.0.points.map { rank[$0.commit]! } }).sorted() }
        // The commit table in history order; groups index into it.
        let usedRanks = Set(groupRanks.joined()).sorted()
        var index: [Int: Int] = [:]
        for (i, r) in usedRanks.enumerated() { index[r] = i }
        let commits = usedRanks.map { r in
            Commit(hash: order[r].hash, parent: order[r].parents?.first, date: order[r].commitDate ?? order[r].authorDate)
        }
        var groups: [Group] = []
        for (key, ranks) in zip(keys, groupRanks) {
            var position: [String: Int] = [:]
            for (p, r) in ranks.enumerated() { position[order[r].hash] = p }
            let charts = byGroup[key]!.sorted { Self.chartOrder($0.0.key.phase) < Self.chartOrder($1.0.key.phase) }.map { one, found in
                Self.series(one, found, positions: position, count: ranks.count)
            }
            groups.append(
                Group(
                    environment: key.environment, tier: key.tier, metric: key.metric.rawValue, target: key.target.name, commits: ranks.map { index[$0]! },
                    series: charts))
        }
        self.title = title
        self.source = source
        self.commits = commits
        self.environments = environments
        self.groups = groups
    }

    /// A series' values aligned on its group's commits, and its steps at their positions.
    static func series(_ one: ChangePointSeries, _ found: SeriesChangePoints, positions: [String: Int], count: Int) -> Series {
        var values = [Double?](repeating: nil, count: count)
        var runs = [Int](repeating: 0, count: count)
        for point in one.points {
            let p = positions[point.commit]!
            values[p] = point.value
            runs[p] = point.runCount
        }
        let steps = found.changePoints.map {
            Step(
                position: positions[$0.commit]!, commit: $0.commit, before: $0.before.median, after: $0.after.median, change: $0.relativeChange,
                pValue: $0.pValue)
        }
        let unit = one.key.phase == SeriesKey.peakMemoryPhase ? "bytes" : (one.key.metric == .instructions ? "instructions" : "s")
        return Series(phase: one.key.phase, unit: unit, exact: found.exact, values: values, runs: runs, steps: steps)
    }

    /// Launch total, then marks (`Time to …`), then peak memory, then the phases by name.
    static func chartOrder(_ phase: String) -> (Int, String) {
        if phase == SeriesKey.totalPhase { return (0, "") }
        if phase.hasPrefix("Time to ") { return (1, phase) }
        if phase == SeriesKey.peakMemoryPhase { return (2, "") }
        return (3, phase)
    }

    /// The group a series is charted in: its key without the phase.
    static func groupKey(_ key: SeriesKey) -> SeriesKey {
        var group = key
        group.phase = ""
        return group
    }
}

import LaunchChangePoints
import LaunchCore

/// A results history: a results directory (one JSON file per result, as `record` wrote them before
/// the databases), a SQLite file, or a PostgreSQL database; all answer the same questions.
public protocol HistoryStore: AnyObject {
    /// The store as messages name it: a path, or a URL without its password.
    var location: String { get }
    /// Stores `result` at `commit` (replacing the result stored for the same commit, dirty flag,
    /// environment, tier, metric and target) in one transaction; returns where, for people.
    @discardableResult
    func save(_ result: LaunchResult, commit: CommitInfo) throws(HistoryError) -> String
    /// Every stored result, oldest date first.
    func entries() throws(HistoryError) -> [HistoryEntry]
    /// The result document of `entry`, byte for byte as the result writer wrote it.
    func document(_ entry: HistoryEntry) throws(HistoryError) -> [UInt8]
    /// Per environment, tier, metric, target and phase, the clean results' run values, commits
    /// ordered by `order`; series sorted by key.
    func series(order: CommitOrder) throws(HistoryError) -> [HistorySeries]
}

extension HistoryStore {
    /// The stored result for `commit` (a full hash) and this tier, target name and metric: a clean
    /// one first, else one recorded with uncommitted changes; `nil` when there is none.
    public func find(commit: String, tier: String?, target: String, metric: Metric) throws(HistoryError) -> HistoryEntry? {
        let matches = try entries().filter {
            $0.commit.hash == commit && $0.tier == (tier ?? "host") && $0.target.name == target && $0.metric == metric
        }
        return matches.first { !$0.dirty } ?? matches.first
    }

    /// The results stored for `commit` (a full hash), whatever their tier, target or metric.
    public func entries(at commit: String) throws(HistoryError) -> [HistoryEntry] {
        try entries().filter { $0.commit.hash == commit }
    }
}

/// Orders points by `order` and builds the series, sorted by key; the points of a key are one per commit.
func assembleSeries(_ points: [SeriesKey: [(commit: CommitInfo, date: String, runs: [Double])]], order: CommitOrder) -> [HistorySeries] {
    var position: [String: Int] = [:]
    if case .firstParent(let commits) = order {
        for (i, hash) in commits.enumerated() where position[hash] == nil { position[hash] = i }
    }
    return points.keys.sorted().map { key in
        var list = points[key] ?? []
        switch order {
        case .firstParent:
            list = list.filter { position[$0.commit.hash] != nil }
            list.sort { position[$0.commit.hash]! < position[$1.commit.hash]! }
        case .date:
            list.sort { a, b in
                let x = (a.commit.commitDate ?? a.commit.authorDate ?? a.date, a.date, a.commit.hash)
                let y = (b.commit.commitDate ?? b.commit.authorDate ?? b.date, b.date, b.commit.hash)
                return x < y
            }
        }
        return HistorySeries(key: key, points: list.map { SeriesPoint(commit: $0.commit, runs: $0.runs) })
    }.filter { !$0.points.isEmpty }
}

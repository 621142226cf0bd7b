import LaunchChangePoints
import LaunchCore
import LaunchDashboard
import LaunchHistory

/// What `launchprof history dashboard` writes, read from the results history: every series with its
/// change points, the commits in the series' order, the environments; and the line that says what was written.
enum HistoryDashboardData {
    /// The dashboard of the history `store` reads, titled `title`, its change points found by `detector`.
    static func make(title: String, store: StoreOption, detector: ChangePointDetector) throws -> DashboardData {
        let series = try HistorySource.series(store)
        let entries = try store.allEntries().map(\.entry)
        do {
            return try DashboardData(
                title: title, source: store.readLocations.map(\.description).joined(separator: ", "), order: commitOrder(entries),
                environments: Dictionary(entries.map { ($0.environment, $0.host) }, uniquingKeysWith: { first, _ in first }), series: series,
                detected: detector.detect(series))
        } catch {
            throw InputError.about(subject: "history dashboard", error)
        }
    }

    /// `wrote DIR/index.html: 12 commits, 30 charts in 2 groups, 3 change points`.
    static func summary(_ data: DashboardData, directory output: String) -> String {
        let charts = data.groups.reduce(0) { $0 + $1.series.count }
        let steps = data.groups.reduce(0) { $0 + $1.series.reduce(0) { $0 + $1.steps.count } }
        let directory = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
        return "wrote \(directory)/index.html: \(data.commits.count) commits, \(charts) charts in \(data.groups.count) groups, \(steps) change points"
    }

    /// Every stored commit in the order the series use: HEAD's first-parent line in a git work
    /// tree (what the series hold is on it), else by commit date as the stores order them.
    static func commitOrder(_ entries: [HistoryEntry]) -> [CommitInfo] {
        var known: [String: CommitInfo] = [:]
        for entry in entries where known[entry.commit.hash] == nil || known[entry.commit.hash]?.parents == nil {
            known[entry.commit.hash] = entry.commit
        }
        switch HistoryGit.order() {
        case .firstParent(let line):
            // On the first-parent line, each commit's first parent is the one before it.
            return line.indices.map { i in
                var commit = known[line[i]] ?? CommitInfo(hash: line[i])
                if commit.parents == nil, i > 0 { commit.parents = [line[i - 1]] }
                return commit
            }
        case .date:
            var seen = Set<String>()
            return entries.sorted { a, b in
                (a.commit.commitDate ?? a.commit.authorDate ?? a.date, a.date, a.commit.hash)
                    < (b.commit.commitDate ?? b.commit.authorDate ?? b.date, b.date, b.commit.hash)
            }.compactMap { seen.insert($0.commit.hash).inserted ? known[$0.commit.hash] : nil }
        }
    }
}

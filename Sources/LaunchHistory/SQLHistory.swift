import LaunchChangePoints
import LaunchCore

/// A history in a SQL database (``SQLiteDatabase`` or ``PostgresDatabase``): the schema of
/// ``HistorySchema``, each result in one transaction.
public final class SQLHistory: HistoryStore {
    let db: SQLDatabase
    public var location: String { db.location }

    /// Opens the history in `db`; with `create`, creating or migrating its tables first.
    public init(_ db: SQLDatabase, create: Bool) throws(HistoryError) {
        self.db = db
        if create {
            try db.writing { () throws(HistoryError) in try HistorySchema.migrate(db) }
        } else {
            let version = try db.reading { () throws(HistoryError) in try HistorySchema.currentVersion(db) }
            if version != 0 && version < HistorySchema.version {
                throw .olderSchema(store: location, version: version)
            }
        }
    }

    private func p(_ n: Int) -> String { db.dialect.parameter(n) }

    @discardableResult
    public func save(_ result: LaunchResult, commit: CommitInfo) throws(HistoryError) -> String {
        let stored = try StoredResult(result, commit: commit, location: location)
        try db.writing { () throws(HistoryError) in
            try HistorySchema.migrate(db)
            try saveCommit(stored.entry.commit)
            let e = stored.entry
            let key: [SQLValue] = [
                .text(e.commit.hash), .integer(e.dirty ? 1 : 0), .text(e.environment), .text(e.tier), .text(e.metric.rawValue),
                .text(e.target.kind.rawValue), .text(e.target.name)
            ]
            try db.execute(
                "DELETE FROM results WHERE commit_hash = \(p(1)) AND dirty = \(p(2)) AND environment = \(p(3)) AND tier = \(p(4)) AND metric = \(p(5)) AND target_kind = \(p(6)) AND target = \(p(7))",
                key)
            let rows = try db.execute(
                """
                INSERT INTO results (commit_hash, dirty, environment, tier, metric, target_kind, target, host, date, run_count, total, document_size, document)
                VALUES (\(db.placeholders(13))) RETURNING id
                """,
                key + [
                    .text(e.host), .text(e.date), .integer(Int64(e.runCount)), e.total.map { .real($0) } ?? .null,
                    .integer(Int64(stored.documentSize)), .blob(stored.document)
                ])
            guard let id = rows.first?.first?.integer else { throw .noID(store: location) }
            for phase in stored.phases {
                let phaseID = try phaseNameID(phase.path)
                try db.execute(
                    "INSERT INTO phase_runs (result_id, phase_id, runs) VALUES (\(db.placeholders(3)))",
                    [.integer(id), .integer(phaseID), .blob(RunPacking.pack(phase.runs))])
            }
        }
        return "\(location) (commit \(commit.hash.prefix(12)))"
    }

    /// Records what is known of the commit, keeping what an earlier result knew and this one does not.
    private func saveCommit(_ commit: CommitInfo) throws(HistoryError) {
        try db.execute(
            """
            INSERT INTO commits (hash, parents, author_date, commit_date, branch) VALUES (\(db.placeholders(5)))
            ON CONFLICT (hash) DO UPDATE SET
                parents = COALESCE(excluded.parents, commits.parents),
                author_date = COALESCE(excluded.author_date, commits.author_date),
                commit_date = COALESCE(excluded.commit_date, commits.commit_date),
                branch = COALESCE(excluded.branch, commits.branch)
            """,
            [
                .text(commit.hash), commit.parents.map { .text($0.joined(separator: " ")) } ?? .null,
                commit.authorDate.map { .text($0) } ?? .null, commit.commitDate.map { .text($0) } ?? .null,
                commit.branch.map { .text($0) } ?? .null
            ])
    }

    private func phaseNameID(_ path: String) throws(HistoryError) -> Int64 {
        try db.execute("INSERT INTO phase_names (path) VALUES (\(p(1))) ON CONFLICT (path) DO NOTHING", [.text(path)])
        guard let id = try db.execute("SELECT id FROM phase_names WHERE path = \(p(1))", [.text(path)]).first?.first?.integer else {
            throw .corrupt(store: location, what: "phase name \"\(path)\" was not stored")
        }
        return id
    }

    static let entryColumns = """
        r.id, c.hash, c.parents, c.author_date, c.commit_date, c.branch, r.dirty, r.environment, r.host, r.tier, r.metric,
        r.target_kind, r.target, r.date, r.run_count, r.total
        """

    public func entries() throws(HistoryError) -> [HistoryEntry] {
        let rows = try db.reading { () throws(HistoryError) -> [[SQLValue]] in
            guard try HistorySchema.currentVersion(db) > 0 else { return [] }
            return try db.execute(
                "SELECT \(Self.entryColumns) FROM results r JOIN commits c ON c.hash = r.commit_hash ORDER BY r.date, r.id", [])
        }
        return try rows.map { (row) throws(HistoryError) -> HistoryEntry in try entry(row) }
    }

    private func entry(_ row: [SQLValue]) throws(HistoryError) -> HistoryEntry {
        guard row.count == 16, let id = row[0].integer, let hash = row[1].text, let metric = row[10].text.flatMap(Metric.init(rawValue:)),
            let kind = row[11].text.flatMap(SeriesTarget.Kind.init(rawValue:))
        else {
            throw .corrupt(store: location, what: "a results row has a missing or unknown field")
        }
        let commit = CommitInfo(
            hash: hash, parents: row[2].text.map { $0.split(separator: " ").map(String.init) }, authorDate: row[3].text,
            commitDate: row[4].text, branch: row[5].text)
        return HistoryEntry(
            id: String(id), commit: commit, dirty: row[6].integer == 1, environment: row[7].text ?? "", host: row[8].text ?? "",
            tier: row[9].text ?? "host", metric: metric, target: SeriesTarget(kind: kind, name: row[12].text ?? ""),
            date: row[13].text ?? "", runCount: Int(row[14].integer ?? 0), total: row[15].real)
    }

    public func document(_ entry: HistoryEntry) throws(HistoryError) -> [UInt8] {
        guard let id = Int64(entry.id) else { throw .noStoredResult(store: location, id: entry.id, removed: false) }
        let rows = try db.reading { () throws(HistoryError) -> [[SQLValue]] in
            try db.execute("SELECT document_size, document FROM results WHERE id = \(p(1))", [.integer(id)])
        }
        guard let row = rows.first, let size = row[0].integer, let bytes = row[1].blob else {
            throw .noStoredResult(store: location, id: entry.id, removed: true)
        }
        return try Deflate.decompress(bytes, size: Int(size), location: location)
    }

    public func series(order: CommitOrder) throws(HistoryError) -> [HistorySeries] {
        // Three reads joined here by integer ids: the results and the phase names once each, then
        // only (result, phase, runs) per phase row, so that a large history's hundreds of thousands
        // of rows carry no repeated text.
        let (results, phases, runs) = try db.reading { () throws(HistoryError) -> ([[SQLValue]], [[SQLValue]], [[SQLValue]]) in
            guard try HistorySchema.currentVersion(db) > 0 else { return ([], [], []) }
            let results = try db.execute(
                """
                SELECT r.id, r.environment, r.tier, r.metric, r.target_kind, r.target,
                       c.hash, c.parents, c.author_date, c.commit_date, c.branch, r.date
                FROM results r JOIN commits c ON c.hash = r.commit_hash
                WHERE r.dirty = 0
                """, [])
            let phases = try db.execute("SELECT id, path FROM phase_names", [])
            let runs = try db.execute("SELECT result_id, phase_id, runs FROM phase_runs", [])
            return (results, phases, runs)
        }
        let seriesResults = try seriesResults(results)
        var phaseNames: [Int64: String] = [:]
        for row in phases {
            guard row.count == 2, let id = row[0].integer, let path = row[1].text else { throw corruptRow("phase_names") }
            phaseNames[id] = path
        }
        var points: [SeriesKey: [(commit: CommitInfo, date: String, runs: [Double])]] = [:]
        for row in runs {
            guard row.count == 3, let resultID = row[0].integer, let phaseID = row[1].integer, let packed = row[2].blob else {
                throw corruptRow("phase_runs")
            }
            // A dirty result's rows, left out above, are skipped here.
            guard let result = seriesResults[resultID] else { continue }
            guard let phase = phaseNames[phaseID] else { throw corruptRow("phase_runs") }
            let key = SeriesKey(environment: result.environment, tier: result.tier, metric: result.metric, target: result.target, phase: phase)
            points[key, default: []].append((result.commit, result.date, RunPacking.unpack(packed)))
        }
        return assembleSeries(points, order: order)
    }

    /// What a series needs of a stored result, by the result's id.
    private struct SeriesResult {
        var environment: String
        var tier: String
        var metric: Metric
        var target: SeriesTarget
        var commit: CommitInfo
        var date: String
    }

    /// The clean results' rows of ``series(order:)``, by id (one ``CommitInfo`` per commit).
    private func seriesResults(_ rows: [[SQLValue]]) throws(HistoryError) -> [Int64: SeriesResult] {
        var results: [Int64: SeriesResult] = [:]
        var commits: [String: CommitInfo] = [:]
        for row in rows {
            guard row.count == 12, let id = row[0].integer, let metric = row[3].text.flatMap(Metric.init(rawValue:)),
                let kind = row[4].text.flatMap(SeriesTarget.Kind.init(rawValue:)), let hash = row[6].text
            else { throw corruptRow("results") }
            let commit =
                commits[hash]
                ?? CommitInfo(
                    hash: hash, parents: row[7].text.map { $0.split(separator: " ").map(String.init) }, authorDate: row[8].text,
                    commitDate: row[9].text, branch: row[10].text)
            commits[hash] = commit
            results[id] = SeriesResult(
                environment: row[1].text ?? "", tier: row[2].text ?? "host", metric: metric, target: SeriesTarget(kind: kind, name: row[5].text ?? ""),
                commit: commit, date: row[11].text ?? "")
        }
        return results
    }

    private func corruptRow(_ table: String) -> HistoryError {
        .corrupt(store: location, what: "a \(table) row has a missing or unknown field")
    }
}

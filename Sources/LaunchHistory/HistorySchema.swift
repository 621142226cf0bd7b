/// The history's tables, the same in SQLite and PostgreSQL (docs/history.md), and how a database
/// is brought to this build's version.
enum HistorySchema {
    /// The version this build writes and reads. A database of a later version is refused.
    static let version = 1

    /// The statements that take a database from version `n - 1` to `n`, for `n` in `1...version`.
    static func migration(to version: Int, _ dialect: SQLDialect) -> [String] {
        switch version {
        case 1: return version1(dialect)
        default: return []
        }
    }

    static func version1(_ d: SQLDialect) -> [String] {
        [
            "CREATE TABLE schema_version (version INTEGER NOT NULL)",
            """
            CREATE TABLE commits (
                hash TEXT PRIMARY KEY,
                parents TEXT,
                author_date TEXT,
                commit_date TEXT,
                branch TEXT)
            """,
            """
            CREATE TABLE results (
                id \(d.serialKey),
                commit_hash TEXT NOT NULL REFERENCES commits(hash),
                dirty INTEGER NOT NULL,
                environment TEXT NOT NULL,
                host TEXT NOT NULL,
                tier TEXT NOT NULL,
                metric TEXT NOT NULL,
                target_kind TEXT NOT NULL,
                target TEXT NOT NULL,
                date TEXT NOT NULL,
                run_count INTEGER NOT NULL,
                total \(d.realType),
                document_size \(d.integerType) NOT NULL,
                document \(d.blobType) NOT NULL,
                UNIQUE (commit_hash, dirty, environment, tier, metric, target_kind, target))
            """,
            "CREATE INDEX results_by_series ON results (environment, tier, metric, target_kind, target)",
            "CREATE TABLE phase_names (id \(d.serialKey), path TEXT NOT NULL UNIQUE)",
            """
            CREATE TABLE phase_runs (
                result_id \(d.integerType) NOT NULL REFERENCES results(id) ON DELETE CASCADE,
                phase_id \(d.integerType) NOT NULL REFERENCES phase_names(id),
                runs \(d.blobType) NOT NULL,
                PRIMARY KEY (result_id, phase_id))\(d == .sqlite ? " WITHOUT ROWID" : "")
            """,
            "INSERT INTO schema_version (version) VALUES (0)"
        ]
    }

    /// The query that names the schema_version table when it exists (no row otherwise).
    static func versionTableQuery(_ d: SQLDialect) -> String {
        d == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
            : "SELECT tablename FROM pg_tables WHERE tablename = 'schema_version' AND schemaname = current_schema()"
    }

    /// Whether the database holds any table at all (a history, or something else).
    static func anyTableQuery(_ d: SQLDialect) -> String {
        d == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'table' LIMIT 1"
            : "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LIMIT 1"
    }

    /// The database's version: 0 when it has no tables yet. Refuses a database with tables that
    /// are not a history, and one written by a later launchprof.
    static func currentVersion(_ db: SQLDatabase) throws(HistoryError) -> Int {
        if try db.execute(versionTableQuery(db.dialect), []).isEmpty {
            if try db.execute(anyTableQuery(db.dialect), []).isEmpty { return 0 }
            throw .notAHistory(store: db.location)
        }
        guard let version = try db.execute("SELECT MAX(version) FROM schema_version", []).first?.first?.integer else {
            throw .corrupt(store: db.location, what: "its schema_version table is empty")
        }
        if version > Int64(HistorySchema.version) {
            throw .newerSchema(store: db.location, version: Int(version), readable: HistorySchema.version)
        }
        return Int(version)
    }

    /// Brings the database to ``version`` inside the caller's write transaction.
    static func migrate(_ db: SQLDatabase) throws(HistoryError) {
        let current = try currentVersion(db)
        guard current < version else { return }
        for next in (current + 1)...version {
            for statement in migration(to: next, db.dialect) { try db.execute(statement, []) }
        }
        try db.execute("UPDATE schema_version SET version = \(db.dialect.parameter(1))", [.integer(Int64(version))])
    }
}

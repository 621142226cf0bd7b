/// Where a history is, from `--store` or `LAUNCHPROF_STORE`: a `postgresql://` (or `postgres://`)
/// URL, a path ending in `.sqlite`, `.sqlite3` or `.db` (a SQLite file), else a results directory.
public enum StoreLocation: Equatable, Sendable, CustomStringConvertible {
    case directory(String)
    case sqlite(String)
    case postgres(String)

    /// The default history of a repository, and the results directory `record` wrote before it.
    public static let defaultDatabase = ".launchprof/history.sqlite"
    public static let legacyDirectory = ".launchprof/results"

    public init(_ text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://") {
            self = .postgres(text)
        } else if [".sqlite", ".sqlite3", ".db"].contains(where: { lower.hasSuffix($0) }) {
            self = .sqlite(text)
        } else {
            self = .directory(text)
        }
    }

    public var description: String {
        switch self {
        case .directory(let path), .sqlite(let path): return path
        case .postgres(let url): return PostgresDatabase.redacted(url)
        }
    }

    /// Opens the store; with `create`, making what is missing (a directory, a database file, the
    /// tables), else refusing a store that is not there.
    public func open(create: Bool) throws(HistoryError) -> any HistoryStore {
        switch self {
        case .directory(let path): return try DirectoryHistory(directory: path, create: create)
        case .sqlite(let path): return try SQLHistory(SQLiteDatabase(path: path, create: create), create: create)
        case .postgres(let url): return try SQLHistory(PostgresDatabase(url: url), create: create)
        }
    }
}

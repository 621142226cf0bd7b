/// A value bound to, or read from, a statement of ``SQLDatabase``.
public enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .text(let text): return Int64(text)
        case .real(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    public var real: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        case .text(let text): return Double(text)
        default: return nil
        }
    }

    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    public var blob: [UInt8]? {
        if case .blob(let bytes) = self { return bytes }
        return nil
    }
}

/// The SQL each database spells its own way; the schema and queries are otherwise the same.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// The `n`th (1-based) statement parameter: `?` or `$n`.
    func parameter(_ n: Int) -> String { self == .sqlite ? "?" : "$\(n)" }

    var blobType: String { self == .sqlite ? "BLOB" : "BYTEA" }
    var realType: String { self == .sqlite ? "REAL" : "DOUBLE PRECISION" }
    var integerType: String { self == .sqlite ? "INTEGER" : "BIGINT" }
    /// An integer key the database numbers itself.
    var serialKey: String { self == .sqlite ? "INTEGER PRIMARY KEY" : "BIGSERIAL PRIMARY KEY" }
}

/// One connection to a SQL database: the two backends of ``SQLHistory`` (SQLite, PostgreSQL).
/// Not shared between threads: each writer opens its own.
public protocol SQLDatabase: AnyObject {
    var dialect: SQLDialect { get }
    /// The store as its errors name it (a path, or a URL without its password).
    var location: String { get }
    /// Runs one statement with `parameters` (written with ``SQLDialect/parameter(_:)``) and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(HistoryError) -> [[SQLValue]]
    /// Runs `body` in a write transaction, taken before any read (so two writers queue rather than
    /// deadlock) and rolled back when `body` throws: nothing already stored is lost.
    func writing<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T
    /// Runs `body` in a read transaction (one consistent snapshot).
    func reading<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T
    /// Ends the transaction under way without keeping anything (errors ignored: the connection's
    /// own end rolls back too).
    func rollBack()
}

extension SQLDatabase {
    /// Runs `body` between `begin` and `COMMIT`, rolled back when `body` (or the commit) throws.
    func transaction<T>(_ begin: String, _ body: () throws(HistoryError) -> T) throws(HistoryError) -> T {
        try execute(begin, [])
        do {
            let value = try body()
            try execute("COMMIT", [])
            return value
        } catch {
            rollBack()
            throw error
        }
    }

    /// The parameters `1...count` of this dialect, comma-separated.
    func placeholders(_ count: Int, from first: Int = 1) -> String {
        (first..<(first + count)).map { dialect.parameter($0) }.joined(separator: ", ")
    }
}

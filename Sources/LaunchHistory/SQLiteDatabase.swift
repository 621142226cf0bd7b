#if canImport(Glibc)
import Glibc
#endif
import CHistoryShim
import LaunchCore

/// A SQLite history file: write-ahead log (readers never wait for a writer), a busy timeout (writers
/// from parallel CI jobs queue for the lock), write transactions taken up front (`BEGIN IMMEDIATE`).
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    public let location: String
    private var handle: OpaquePointer?
    private let busyTimeout: Double

    /// Opens (with `create`, creating) the database at `path`; waits up to `busyTimeout` seconds for
    /// another process's lock before failing. `readOnly` opens it as SQLite opens a file it may not
    /// write (its permissions, a read-only mount).
    public init(path: String, create: Bool, readOnly: Bool = false, busyTimeout: Double = 30) throws(HistoryError) {
        location = path
        self.busyTimeout = busyTimeout
        if !create, !FileIO.exists(path) { throw .noSuchHistory(store: path) }
        // A FIFO or a device is refused before SQLite opens it (a FIFO would block, /dev/zero reads forever).
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw .notRegularFile(store: path, type: FileIO.fileTypeName(info.st_mode & S_IFMT))
        }
        if create, !readOnly {
            let parent = FileIO.parentDirectory(of: path)
            do { try FileIO.createDirectories(parent) } catch { throw .cannotCreateDirectory(store: path, error) }
        }
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let error = failure(status)
            sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        sqlite3_busy_timeout(handle, Int32(min(busyTimeout * 1000, Double(Int32.max))))
        sqlite3_extended_result_codes(handle, 1)
        try execute("PRAGMA foreign_keys = ON", [])
        if sqlite3_db_readonly(handle, "main") == 0 {
            // The journal mode is stored in the file: set once, later opens find it (and take no lock).
            let mode = try execute("PRAGMA journal_mode", []).first?.first?.text
            if mode != "wal" { try execute("PRAGMA journal_mode = WAL", []) }
            try execute("PRAGMA synchronous = NORMAL", [])
        }
    }

    deinit { sqlite3_close_v2(handle) }

    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue]) throws(HistoryError) -> [[SQLValue]] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard prepared == SQLITE_OK else { throw failure(prepared) }
        for (i, value) in parameters.enumerated() {
            let status = bind(value, at: Int32(i + 1), in: statement)
            guard status == SQLITE_OK else { throw failure(status) }
        }
        var rows: [[SQLValue]] = []
        var lockWait = LockWait(seconds: busyTimeout)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            if status == SQLITE_ROW {
                rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
                continue
            }
            // SQLite answers "busy" at once, without its busy handler, in a few races (a new file turned
            // to WAL by another process, a WAL being recovered): wait and step again, within the timeout.
            if status & 0xff == SQLITE_BUSY, rows.isEmpty, lockWait.again() {
                sqlite3_reset(statement)
                continue
            }
            throw failure(status)
        }
    }

    public func writing<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    public func reading<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T {
        try transaction("BEGIN", body)
    }

    public func rollBack() {
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer?) -> Int32 {
        switch value {
        case .null: return sqlite3_bind_null(statement, index)
        case .integer(let number): return sqlite3_bind_int64(statement, index, number)
        case .real(let number): return sqlite3_bind_double(statement, index, number)
        case .text(let text):
            return text.withCString { lp_sqlite_bind_text(statement, index, $0, Int32(text.utf8.count)) }
        case .blob(let bytes):
            return bytes.withUnsafeBytes { lp_sqlite_bind_blob(statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count)) }
        }
    }

    private func column(_ statement: OpaquePointer?, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// The error of status `status`, in words that say what to do.
    private func failure(_ status: Int32) -> HistoryError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        switch status & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .database(store: location, engine: .sqlite, failure: .locked(seconds: busyTimeout), message: message)
        case SQLITE_READONLY:
            return .database(store: location, engine: .sqlite, failure: .readOnly, message: message)
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return .database(store: location, engine: .sqlite, failure: .notADatabase, message: message)
        case SQLITE_CANTOPEN:
            return .database(store: location, engine: .sqlite, failure: .cannotOpen, message: message)
        case SQLITE_FULL:
            return .database(store: location, engine: .sqlite, failure: .diskFull, message: message)
        default:
            return .database(store: location, engine: .sqlite, failure: .other, message: message)
        }
    }
}

/// Waiting for another process's lock when SQLite said "busy" without waiting itself: 20 ms at a
/// time, until `seconds` after the first busy answer.
struct LockWait {
    let seconds: Double
    private var deadline: UInt64?

    init(seconds: Double) { self.seconds = seconds }

    /// Sleeps 20 ms and returns `true` while the deadline is ahead; `false` once it has passed.
    mutating func again(now: UInt64 = MonotonicClock.nanoseconds()) -> Bool {
        let end = deadline ?? now &+ UInt64(max(0, min(seconds, 86_400)) * 1e9)
        deadline = end
        guard now < end else { return false }
        var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
        nanosleep(&pause, nil)
        return true
    }
}

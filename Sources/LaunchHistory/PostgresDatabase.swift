#if canImport(Glibc)
import Glibc
#endif
import CHistoryShim

/// A PostgreSQL history (`postgresql://…`, through libpq), for many CI machines sharing one.
/// libpq is opened on the first connection (`lp_pq_open`), not linked: launchprof's other commands
/// do not pay for loading it and the ~24 libraries it needs.
/// Writers queue on one advisory lock held for their transaction; waiting for it or another lock
/// longer than the lock timeout fails with an error naming the database.
public final class PostgresDatabase: SQLDatabase {
    public let dialect = SQLDialect.postgres
    public let location: String
    private let connection: OpaquePointer
    private let lockTimeout: Double

    /// The advisory lock every history writer takes (an arbitrary constant: "lp" "hist").
    static let writerLock: Int64 = 0x6c70_6869_7374

    public init(url: String, lockTimeout: Double = 30, connectTimeout: Int = 10) throws(HistoryError) {
        location = Self.redacted(url)
        self.lockTimeout = lockTimeout
        try Self.openLibrary(store: location)
        let keywords = ["dbname", "connect_timeout", "application_name"]
        let values = [url, String(connectTimeout), "launchprof"]
        let connection = withCStrings(keywords) { keys in withCStrings(values) { lp_PQconnectdbParams(keys, $0, 1) } }
        guard let connection else { throw .database(store: location, engine: .postgreSQL, failure: .cannotConnect(outOfMemory: true), message: "") }
        guard lp_PQstatus(connection) == LP_CONNECTION_OK else {
            let message = Self.message(connection)
            lp_PQfinish(connection)
            throw .database(store: location, engine: .postgreSQL, failure: .cannotConnect(outOfMemory: false), message: message)
        }
        self.connection = connection
        lp_PQdiscardNotices(connection)
        try execute("SET lock_timeout = '\(Int(lockTimeout * 1000))ms'", [])
        try execute("SET client_min_messages = warning", [])
    }

    deinit { lp_PQfinish(connection) }

    /// Opens libpq (once per process), or says why it cannot be used.
    private static func openLibrary(store: String) throws(HistoryError) {
        var message = [CChar](repeating: 0, count: 512)
        guard lp_pq_open(&message, message.count) != 0 else { return }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw .cannotLoadLibrary(store: store, library: LP_LIBPQ_NAME, reason: reason)
    }

    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue]) throws(HistoryError) -> [[SQLValue]] {
        let encoded: [[UInt8]?] = parameters.map { value in
            switch value {
            case .null: return nil
            case .integer(let number): return Array(String(number).utf8)
            case .real(let number): return Array(number.description.utf8)
            case .text(let text): return Array(text.utf8)
            case .blob(let bytes): return bytes
            }
        }
        let formats: [Int32] = parameters.map { if case .blob = $0 { return 1 } else { return 0 } }
        let lengths: [Int32] = encoded.map { Int32($0?.count ?? 0) }
        let result = withBuffers(encoded) { pointers in
            lp_PQexecParams(connection, sql, Int32(parameters.count), nil, pointers, lengths, formats, 0)
        }
        defer { lp_PQclear(result) }
        let status = lp_PQresultStatus(result)
        guard status == LP_PGRES_COMMAND_OK || status == LP_PGRES_TUPLES_OK else { throw failure(result) }
        return rows(result)
    }

    public func writing<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T {
        try transaction("BEGIN") { () throws(HistoryError) -> T in
            try execute("SELECT pg_advisory_xact_lock(\(Self.writerLock))", [])
            return try body()
        }
    }

    public func reading<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    public func rollBack() {
        lp_PQclear(lp_PQexec(connection, "ROLLBACK"))
    }

    private func rows(_ result: OpaquePointer?) -> [[SQLValue]] {
        let count = lp_PQntuples(result), fields = lp_PQnfields(result)
        return (0..<count).map { row in
            (0..<fields).map { field in
                if lp_PQgetisnull(result, row, field) == 1 { return .null }
                let length = Int(lp_PQgetlength(result, row, field))
                let text =
                    lp_PQgetvalue(result, row, field).map { pointer in
                        pointer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
                    } ?? []
                switch lp_PQftype(result, field) {
                case 20, 21, 23: return .integer(Int64(String(decoding: text, as: UTF8.self)) ?? 0)
                case 700, 701: return .real(Double(String(decoding: text, as: UTF8.self)) ?? .nan)
                case 17: return .blob(Self.unhex(text))
                default: return .text(String(decoding: text, as: UTF8.self))
                }
            }
        }
    }

    /// A `bytea` in PostgreSQL's hex output (`\x0a1b…`).
    static func unhex(_ text: [UInt8]) -> [UInt8] {
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return 0
            }
        }
        guard text.count >= 2, text[0] == 92, text[1] == 120 else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var i = 2
        while i + 1 < text.count {
            bytes.append(nibble(text[i]) << 4 | nibble(text[i + 1]))
            i += 2
        }
        return bytes
    }

    private func failure(_ result: OpaquePointer?) -> HistoryError {
        let state = lp_PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = lp_PQresultErrorMessage(result).map { String(cString: $0) }?.trimmed ?? Self.message(connection)
        switch state {
        case "55P03", "40P01":
            return .database(store: location, engine: .postgreSQL, failure: .locked(seconds: lockTimeout), message: message)
        case "25006", "42501":
            return .database(store: location, engine: .postgreSQL, failure: .readOnly, message: message)
        default:
            return .database(store: location, engine: .postgreSQL, failure: .other, message: message)
        }
    }

    private static func message(_ connection: OpaquePointer?) -> String {
        lp_PQerrorMessage(connection).map { String(cString: $0) }?.trimmed ?? "unknown error"
    }

    /// `url` without its password (`postgresql://user:secret@host/db` → `postgresql://user@host/db`).
    public static func redacted(_ url: String) -> String {
        let characters = Array(url)
        guard let scheme = (0..<max(characters.count - 2, 0)).first(where: { characters[$0..<$0 + 3] == [":", "/", "/"] }) else { return url }
        let start = scheme + 3
        let authority = characters[start...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@"), let colon = characters[start..<at].firstIndex(of: ":") else { return url }
        return String(characters[..<colon]) + String(characters[at...])
    }
}

extension String {
    fileprivate var trimmed: String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == " " { text = text.dropLast() }
        return String(text)
    }
}

/// `strings` as C strings (NUL-terminated, then a NULL), for the length of `body`.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Each buffer as a pointer to its bytes followed by a NUL (libpq reads a text parameter up to its
/// NUL, a binary one by its length); `nil` for SQL NULL; for the length of `body`.
private func withBuffers<T>(_ buffers: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    let copies: [UnsafeMutablePointer<UInt8>?] = buffers.map { buffer in
        guard let buffer else { return nil }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: buffer.count + 1)
        copy.initialize(from: buffer, count: buffer.count)
        copy[buffer.count] = 0
        return copy
    }
    defer { copies.forEach { $0?.deallocate() } }
    return body(copies.map { $0.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } })
}

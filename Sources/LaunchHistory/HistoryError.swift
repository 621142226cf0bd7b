import LaunchCore
import LaunchResults

/// LaunchHistory's one error: a history store that cannot be used, naming it (a file, directory or
/// database URL, its password left out) and why. One renderer, ``description``: `store: reason`.
/// The CLI prints it and exits 2.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A database with tables but no `schema_version`: another program's.
    case notAHistory(store: String)
    /// Written by a later launchprof (`version`; this one reads up to `readable`).
    case newerSchema(store: String, version: Int, readable: Int)
    /// Written by an earlier launchprof at `version`: storing into it migrates it.
    case olderSchema(store: String, version: Int)
    /// Damaged contents: `what` is wrong.
    case corrupt(store: String, what: String)
    /// A result without the git commit it was made at.
    case noCommit(store: String)
    /// The result could not be encoded (a value JSON cannot hold) or compressed (zlib's `status`).
    case cannotEncode(store: String, PrettyJSON.Unencodable)
    case cannotCompress(store: String, status: Int32)
    /// No stored result `id`; `removed` when it was listed a moment before.
    case noStoredResult(store: String, id: String, removed: Bool)
    /// The database returned no id for a stored result.
    case noID(store: String)
    /// A results directory that is a file, or does not exist.
    case notADirectory(store: String)
    case noSuchDirectory(store: String)
    /// A SQLite history that does not exist, is not a regular file (`type`), or whose directory cannot be made.
    case noSuchHistory(store: String)
    case notRegularFile(store: String, type: String)
    case cannotCreateDirectory(store: String, CoreError)
    /// PostgreSQL's client library `library` cannot be loaded.
    case cannotLoadLibrary(store: String, library: String, reason: String)
    /// The database refused: `failure` says how, `message` is the database's own words.
    case database(store: String, engine: DatabaseEngine, failure: DatabaseFailure, message: String)
    /// A result file of a results directory that cannot be read.
    case result(ResultError)
    /// A file of a results directory that cannot be read or written.
    case file(CoreError)

    /// The database a ``database(store:engine:failure:message:)`` error comes from.
    public enum DatabaseEngine: String, Equatable, Sendable {
        case sqlite = "SQLite"
        case postgreSQL = "PostgreSQL"
    }

    /// How a database refused.
    public enum DatabaseFailure: Equatable, Sendable {
        /// Locked by another writer for longer than `seconds`.
        case locked(seconds: Double)
        case readOnly
        /// Not a database of the engine, or a corrupt one.
        case notADatabase
        case cannotOpen
        case diskFull
        /// The connection failed (`outOfMemory` when the client library could not allocate one).
        case cannotConnect(outOfMemory: Bool)
        case other
    }

    /// The store (or the result file being read).
    public var store: String {
        switch self {
        case .notAHistory(let store), .newerSchema(let store, _, _), .olderSchema(let store, _), .corrupt(let store, _), .noCommit(let store),
            .cannotEncode(let store, _), .cannotCompress(let store, _), .noStoredResult(let store, _, _), .noID(let store),
            .notADirectory(let store), .noSuchDirectory(let store), .noSuchHistory(let store), .notRegularFile(let store, _),
            .cannotCreateDirectory(let store, _), .cannotLoadLibrary(let store, _, _), .database(let store, _, _, _):
            return store
        case .result(let error): return error.subject
        case .file(let error): return error.path ?? ""
        }
    }

    /// Why, without the store.
    public var reason: String {
        switch self {
        case .notAHistory: return "not a launchprof history: it has tables but no schema_version (another program's database?)"
        case .newerSchema(_, let version, let readable):
            return "written by a newer launchprof (schema version \(version); this one reads up to \(readable)): upgrade launchprof to use it"
        case .olderSchema(_, let version): return "an older history (schema version \(version)): store a result into it to migrate it"
        case .corrupt(_, let what): return "corrupt: \(what)"
        case .noCommit: return "a stored result needs the git commit it was made at (record it in a git work tree)"
        case .cannotEncode(_, let refusal): return "the result \(refusal)"
        case .cannotCompress(_, let status): return "cannot compress a result (zlib status \(status))"
        case .noStoredResult(_, let id, let removed): return "no stored result \(id)\(removed ? " (removed meanwhile?)" : "")"
        case .noID: return "the database returned no id for the stored result"
        case .notADirectory: return "not a directory (a history database ends in .sqlite or .db; a PostgreSQL one is a postgresql:// URL)"
        case .noSuchDirectory: return "no such results directory"
        case .noSuchHistory: return "no such history (record into it first, or import results)"
        case .notRegularFile(_, let type): return "is \(type), not a regular file: a SQLite history is a file"
        case .cannotCreateDirectory(_, let error): return "cannot create its directory: \(error)"
        case .cannotLoadLibrary(_, let library, let reason):
            return "cannot load PostgreSQL's client library \(library) (install libpq5: apt-get install libpq5): \(reason)"
        case .database(_, let engine, let failure, let message): return Self.databaseReason(engine, failure, message)
        case .result(let error): return error.reason
        case .file(let error): return error.reason
        }
    }

    public var description: String { "\(store): \(reason)" }

    private static func databaseReason(_ engine: DatabaseEngine, _ failure: DatabaseFailure, _ message: String) -> String {
        let said = "(\(engine.rawValue): \(message))"
        switch (engine, failure) {
        case (.sqlite, .locked(let seconds)):
            return
                "locked by another process for more than \(DurationFormat.format(seconds)) (another launchprof writing into it, or one that hangs holding it)"
        case (.postgreSQL, .locked(let seconds)):
            return "locked by another session for more than \(Int(seconds)) s (another launchprof writing into it?) \(said)"
        case (.sqlite, .readOnly): return "read-only: cannot store into it (its permissions, or a read-only file system) \(said)"
        case (.postgreSQL, .readOnly): return "read-only, or this user may not write to it \(said)"
        case (_, .notADatabase): return "not a SQLite database, or a corrupt one \(said); nothing was written to it"
        case (_, .cannotOpen): return "cannot open it (does its directory exist and may launchprof write there?) \(said)"
        case (_, .diskFull): return "the disk is full \(said)"
        case (_, .cannotConnect(let outOfMemory)): return outOfMemory ? "cannot connect: out of memory" : "cannot connect \(said)"
        case (_, .other): return "\(engine.rawValue): \(message)"
        }
    }
}

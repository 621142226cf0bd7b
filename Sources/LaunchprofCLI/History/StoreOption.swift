import ArgumentParser
import LaunchCore
import LaunchHistory

#if canImport(Glibc)
import Glibc
#endif

/// `--store` (and `LAUNCHPROF_STORE`): the results history results are stored into and looked up in
/// (docs/history.md): a SQLite file, a PostgreSQL URL, or a results directory.
struct StoreOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The results history: a SQLite file (.sqlite, .db), a postgresql:// URL, or a results directory (default: $LAUNCHPROF_STORE, else .launchprof/history.sqlite).",
            valueName: "store"))
    var store: String?

    static let environmentVariable = "LAUNCHPROF_STORE"

    func validate() throws {
        if let store, store.isEmpty { throw ValidationError("--store needs a file, a directory or a postgresql:// URL") }
    }

    /// The store `--store` names, else `LAUNCHPROF_STORE` (when set and not empty).
    var named: String? {
        if let store { return store }
        guard let value = getenv(Self.environmentVariable).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

    /// Where results are written: the store named, else the repository's history database. A
    /// repository with a results directory (`record` before the database) and no database keeps
    /// writing the directory, and is told once how to move to the database.
    func writeLocation(quiet: Bool) -> StoreLocation {
        if let named { return StoreLocation(named) }
        if !FileIO.exists(StoreLocation.defaultDatabase), FileIO.isDirectory(StoreLocation.legacyDirectory) {
            if !quiet {
                StandardError.write(
                    "launchprof: note: storing into \(StoreLocation.legacyDirectory)/ as before; `launchprof history import \(StoreLocation.legacyDirectory)` moves its results into \(StoreLocation.defaultDatabase), used from then on\n"
                )
            }
            return .directory(StoreLocation.legacyDirectory)
        }
        return .sqlite(StoreLocation.defaultDatabase)
    }

    /// Where results are looked up: the store named, else the history database and the results
    /// directory that exist (the database first); the database when neither does.
    var readLocations: [StoreLocation] {
        if let named { return [StoreLocation(named)] }
        var locations: [StoreLocation] = []
        if FileIO.exists(StoreLocation.defaultDatabase) { locations.append(.sqlite(StoreLocation.defaultDatabase)) }
        if FileIO.isDirectory(StoreLocation.legacyDirectory) { locations.append(.directory(StoreLocation.legacyDirectory)) }
        return locations.isEmpty ? [.sqlite(StoreLocation.defaultDatabase)] : locations
    }

    /// Opens the store results are written into, before any run: a store that cannot be written
    /// (corrupt, locked, read-only, of a later launchprof, unreachable) is refused before the work.
    func openForWriting(quiet: Bool) throws -> any HistoryStore {
        let location = writeLocation(quiet: quiet)
        if case .directory(let path) = location { try OutputPath.checkDirectory(path, option: "--store") }
        return try location.open(create: true)
    }

    /// Stores `result` into `store` with what git knows of its commit, and says where unless `quiet`.
    func save(_ result: LaunchResult, into store: any HistoryStore, quiet: Bool) throws {
        let commit = HistoryGit.commitInfo(of: result)
        let place: String
        place = try store.save(result, commit: commit)
        if !quiet { StandardError.write("launchprof: recorded \(place)\n") }
    }
}

import Foundation
import LaunchCore
import LaunchExport
import LaunchHistory
import LaunchprofTestSupport
import Testing

@Suite(.temporaryDirectory) struct SQLiteStoreTests {
    /// A history file in a directory not made yet, in the test's own directory (removed when it ends).
    static func newPath() throws -> String {
        try #require(TemporaryDirectory.current) + "/nested/history.sqlite"
    }

    static func contract() throws -> StoreContract {
        let path = try newPath()
        return StoreContract { try StoreLocation(path).open(create: true) }
    }

    @Test func storesAndReadsBack() throws { try Self.contract().storesAndReadsBack() }
    @Test func replacesTheSameKey() throws { try Self.contract().replacesTheSameKey() }
    @Test func buildsSeries() throws { try Self.contract().buildsSeries() }
    @Test func parallelWriters() throws { try Self.contract().parallelWriters() }

    @Test func aFIFOOrADeviceIsRefusedBeforeSQLiteOpensIt() throws {
        let directory = TemporaryDirectory.uniquePath("special")
        #expect(mkdir(directory, 0o755) == 0)
        defer { for name in ["fifo.sqlite", "zero.sqlite"] { unlink(directory + "/" + name) }; rmdir(directory) }
        #expect(mkfifo(directory + "/fifo.sqlite", 0o600) == 0)
        #expect(symlink("/dev/zero", directory + "/zero.sqlite") == 0)
        for (name, kind) in [("fifo.sqlite", "a FIFO (named pipe)"), ("zero.sqlite", "a character device")] {
            for create in [false, true] {
                #expect {
                    _ = try SQLiteDatabase(path: directory + "/" + name, create: create)
                } throws: { error in
                    "\(error)".contains("\(name): is \(kind), not a regular file")
                }
            }
        }
    }

    @Test func refusesAFutureSchema() throws {
        let path = try Self.newPath()
        try StoreContract { try StoreLocation(path).open(create: true) }.refusesAFutureSchema { version in
            try SQLiteDatabase(path: path, create: false).execute("UPDATE schema_version SET version = ?", [.integer(Int64(version))])
        }
    }

    @Test func usesWriteAheadLogging() throws {
        let path = try Self.newPath()
        _ = try StoreLocation(path).open(create: true)
        #expect(try SQLiteDatabase(path: path, create: false).execute("PRAGMA journal_mode", []) == [[.text("wal")]])
    }

    @Test func refusesACorruptFileAndLeavesIt() throws {
        let path = try Self.newPath()
        let garbage = Array(repeating: UInt8(ascii: "x"), count: 4096)
        try FileIO.createDirectories(FileIO.parentDirectory(of: path))
        try FileIO.writeAtomically(garbage, to: path)
        for create in [true, false] {
            #expect {
                _ = try StoreLocation(path).open(create: create)
            } throws: { error in
                let error = error as? HistoryError
                return error?.store == path && error?.reason.contains("not a SQLite database, or a corrupt one") == true
            }
        }
        #expect(try FileIO.read(path) == garbage)
    }

    @Test func refusesAnotherProgramsDatabase() throws {
        let path = try Self.newPath()
        try SQLiteDatabase(path: path, create: true).execute("CREATE TABLE notes (text TEXT)", [])
        #expect {
            _ = try StoreLocation(path).open(create: true)
        } throws: { ($0 as? HistoryError)?.reason.contains("not a launchprof history") == true }
    }

    @Test func reportsALockedStoreAndKeepsWhatItHolds() throws {
        let path = try Self.newPath()
        let store = try StoreLocation(path).open(create: true)
        try store.save(HistoryFixtures.result(commit: 1), commit: CommitInfo(hash: HistoryFixtures.commit(1)))
        let holder = try SQLiteDatabase(path: path, create: false)
        try holder.execute("BEGIN EXCLUSIVE", [])
        let waiting = try SQLHistory(SQLiteDatabase(path: path, create: false, busyTimeout: 0.2), create: false)
        #expect {
            try waiting.save(HistoryFixtures.result(commit: 2), commit: CommitInfo(hash: HistoryFixtures.commit(2)))
        } throws: { error in
            let error = error as? HistoryError
            return error?.store == path && error?.reason.contains("locked by another process") == true
        }
        try holder.execute("ROLLBACK", [])
        #expect(try store.entries().map(\.commit.hash) == [HistoryFixtures.commit(1)])
    }

    @Test func reportsAReadOnlyStore() throws {
        let path = try Self.newPath()
        try StoreLocation(path).open(create: true).save(HistoryFixtures.result(commit: 1), commit: CommitInfo(hash: HistoryFixtures.commit(1)))
        let readOnly = try SQLHistory(SQLiteDatabase(path: path, create: false, readOnly: true), create: false)
        #expect(try readOnly.entries().count == 1)
        #expect {
            try readOnly.save(HistoryFixtures.result(commit: 2), commit: CommitInfo(hash: HistoryFixtures.commit(2)))
        } throws: { error in
            let error = error as? HistoryError
            return error?.store == path && error?.reason.hasPrefix("read-only") == true
        }
        #expect(try readOnly.entries().count == 1)
    }

    @Test func refusesAMissingStoreWhenReading() throws {
        let path = try Self.newPath()
        #expect { _ = try StoreLocation(path).open(create: false) } throws: { ($0 as? HistoryError)?.store == path }
        #expect(!FileIO.exists(path))
    }
}

import LaunchHistory
import Testing

/// The same store tests against a real PostgreSQL server (``ThrowawayPostgres``).
@Suite(.enabled(if: ThrowawayPostgres.unavailable == nil, "PostgreSQL tests skipped: \(ThrowawayPostgres.unavailable ?? "")"))
struct PostgresStoreTests {
    static func newURL() throws -> String { try ThrowawayPostgres.shared.get().newDatabase() }

    static func contract() throws -> StoreContract {
        let url = try newURL()
        return StoreContract { try StoreLocation(url).open(create: true) }
    }

    @Test func storesAndReadsBack() throws { try Self.contract().storesAndReadsBack() }
    @Test func replacesTheSameKey() throws { try Self.contract().replacesTheSameKey() }
    @Test func buildsSeries() throws { try Self.contract().buildsSeries() }
    @Test func parallelWriters() throws { try Self.contract().parallelWriters() }

    @Test func refusesAFutureSchema() throws {
        let url = try Self.newURL()
        try StoreContract { try StoreLocation(url).open(create: true) }.refusesAFutureSchema { version in
            try PostgresDatabase(url: url).execute("UPDATE schema_version SET version = $1", [.integer(Int64(version))])
        }
    }

    @Test func reportsALockedStore() throws {
        let url = try Self.newURL()
        let store = try StoreLocation(url).open(create: true)
        let holder = try PostgresDatabase(url: url)
        try holder.execute("BEGIN", [])
        try holder.execute("SELECT pg_advisory_xact_lock(\(0x6c70_6869_7374))", [])
        let waiting = try SQLHistory(PostgresDatabase(url: url, lockTimeout: 0.2), create: false)
        #expect {
            try waiting.save(HistoryFixtures.result(commit: 2), commit: CommitInfo(hash: HistoryFixtures.commit(2)))
        } throws: { error in
            let error = error as? HistoryError
            return error?.store == store.location && error?.reason.contains("locked by another session") == true
        }
        try holder.execute("ROLLBACK", [])
        try waiting.save(HistoryFixtures.result(commit: 2), commit: CommitInfo(hash: HistoryFixtures.commit(2)))
        #expect(try store.entries().count == 1)
    }

    @Test func namesAnUnreachableServerWithoutItsPassword() throws {
        let url = "postgresql://me:secret@/nowhere?host=/nonexistent-socket-dir"
        #expect {
            _ = try StoreLocation(url).open(create: false)
        } throws: { error in
            let error = error as? HistoryError
            return error?.store == "postgresql://me@/nowhere?host=/nonexistent-socket-dir" && error?.reason.hasPrefix("cannot connect") == true
        }
    }
}

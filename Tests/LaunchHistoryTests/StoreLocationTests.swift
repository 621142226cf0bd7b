import LaunchHistory
import Testing

@Suite struct StoreLocationTests {
    @Test func choosesTheBackendByItsName() {
        #expect(StoreLocation("postgresql://ci@db/perf") == .postgres("postgresql://ci@db/perf"))
        #expect(StoreLocation("POSTGRES://db/perf") == .postgres("POSTGRES://db/perf"))
        #expect(StoreLocation(".launchprof/history.sqlite") == .sqlite(".launchprof/history.sqlite"))
        #expect(StoreLocation("perf.db") == .sqlite("perf.db"))
        #expect(StoreLocation(".launchprof/results") == .directory(".launchprof/results"))
    }

    @Test func leavesThePasswordOutOfMessages() {
        #expect(PostgresDatabase.redacted("postgresql://ci:hunter2@db:5432/perf") == "postgresql://ci@db:5432/perf")
        #expect(PostgresDatabase.redacted("postgresql://ci@db/perf") == "postgresql://ci@db/perf")
        #expect(PostgresDatabase.redacted("postgresql:///perf?host=/tmp") == "postgresql:///perf?host=/tmp")
        #expect(StoreLocation("postgres://a:b@h/d").description == "postgres://a@h/d")
    }
}

import Foundation
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchHistory
import LaunchprofTestSupport
import Testing

/// Issue 30's goals for both backends through the CLI: 8 `record --store` at once into one SQLite file
/// and into one PostgreSQL database, every result stored and intact; and the same history gives
/// `history detect` the same output from either.
struct ParallelRecordTests {
    static var postgresAvailable: Bool { ThrowawayPostgres.unavailable == nil }

    /// 8 processes each `record` the built-in app (one run) from a repository of its own into `store`
    /// at once; then the store holds 8 results, one per commit, each byte for byte what its `--output` wrote.
    func eightParallelRecords(into store: String) throws {
        let repositories = try (0..<8).map { _ in try LaunchprofProcess.repository() }
        defer { repositories.forEach(TemporaryDirectory.remove) }
        let manifest = FixtureManifest.fixture + "/manifest.json"
        let outcomes = UnsafeMutableBufferPointer<LaunchprofProcess.Outcome>.allocate(capacity: repositories.count)
        defer { outcomes.deallocate() }
        nonisolated(unsafe) let slots = outcomes
        DispatchQueue.concurrentPerform(iterations: repositories.count) { i in
            let arguments = [
                "record", "--store", store, "--runs", "1", "--warmup", "0", "--quiet", "--manifest", manifest, "--output", "result.json", "--snapshot",
                "snapshot.png"
            ]
            let outcome = (try? LaunchprofProcess.run(arguments, in: repositories[i])) ?? .init(status: -1, stdout: "", stderr: "could not start")
            (slots.baseAddress! + i).initialize(to: outcome)
        }
        for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.stderr)") }
        var written: [String: [UInt8]] = [:]
        for repository in repositories {
            let bytes = try FileIO.read(repository + "/result.json")
            written[try ResultFile.decode(bytes, path: repository + "/result.json").git?.commit ?? ""] = bytes
        }
        let opened = try StoreLocation(store).open(create: false)
        let entries = try opened.entries()
        #expect(entries.count == 8 && written.count == 8)
        #expect(Set(entries.map(\.commit.hash)) == Set(written.keys))
        for entry in entries {
            #expect(try opened.document(entry) == written[entry.commit.hash], "the result of \(entry.commit.hash) differs from what record wrote")
            #expect(entry.runCount == 1 && !entry.dirty)
        }
    }

    @Test func eightParallelRecordsIntoSQLite() throws {
        let directory = try TemporaryDirectory.make(prefix: "parallel-sqlite")
        defer { TemporaryDirectory.remove(directory) }
        try eightParallelRecords(into: directory + "/history.sqlite")
    }

    @Test(.enabled(if: postgresAvailable, "PostgreSQL tests skipped: \(ThrowawayPostgres.unavailable ?? "")"))
    func eightParallelRecordsIntoPostgres() throws {
        try eightParallelRecords(into: try ThrowawayPostgres.shared.get().newDatabase())
    }

    /// 30 commits of two hosts; on the first host phase 2 is 20% slower from commit 18 on.
    static func save(into store: any HistoryStore) throws {
        for host in [HistoryFixtures.host, HistoryFixtures.otherHost] {
            for n in 0..<30 {
                var result = HistoryFixtures.result(commit: n, runs: 5, host: host, date: "2026-11-25T10:\(String(format2: n)):00Z")
                for r in result.runs.indices {
                    result.runs[r].phases[2].duration *= (host == HistoryFixtures.host && n >= 18 ? 1.2 : 1) * (1 + 0.001 * Double((n * 7 + r * 3) % 5))
                }
                let commit = CommitInfo(
                    hash: HistoryFixtures.commit(n), parents: n > 0 ? [HistoryFixtures.commit(n - 1)] : [],
                    commitDate: "2026-11-25T10:\(String(format2: n)):00Z")
                try store.save(result, commit: commit)
            }
        }
    }

    @Test(.enabled(if: postgresAvailable, "PostgreSQL tests skipped: \(ThrowawayPostgres.unavailable ?? "")"))
    func sqliteAndPostgresDetectTheSame() throws {
        let directory = try TemporaryDirectory.make(prefix: "detect-both")
        defer { TemporaryDirectory.remove(directory) }
        let stores = [directory + "/history.sqlite", try ThrowawayPostgres.shared.get().newDatabase()]
        for store in stores { try Self.save(into: StoreLocation(store).open(create: true)) }
        // Outside a git work tree: commits ordered by their dates.
        for format in ["json", "markdown", "text"] {
            let outputs = try stores.map { try LaunchprofProcess.run(["history", "detect", "--store", $0, "--format", format], in: directory) }
            for outcome in outputs { #expect(outcome.status == 0, "\(outcome.stderr)") }
            #expect(outputs[0].stdout == outputs[1].stdout, "SQLite and PostgreSQL disagree (\(format))")
            #expect(outputs[0].stdout.contains(format == "json" ? HistoryFixtures.commit(18) : String(HistoryFixtures.commit(18).prefix(12))))
        }
        let json = try LaunchprofProcess.run(["history", "detect", "--store", stores[1], "--format", "json"], in: directory).stdout
        #expect(json.contains("\"seriesCount\" : 16"), "\(json.prefix(300))")
    }
}

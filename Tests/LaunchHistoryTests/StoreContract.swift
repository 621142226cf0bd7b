import Foundation
import LaunchChangePoints
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchHistory
import Testing

/// The tests every SQL backend passes: `open` gives a new connection to one fresh, empty history.
struct StoreContract: Sendable {
    let open: @Sendable () throws -> any HistoryStore

    func commitInfo(_ n: Int) -> CommitInfo {
        CommitInfo(
            hash: HistoryFixtures.commit(n), parents: [HistoryFixtures.commit(n - 1)], authorDate: "2026-01-01T00:00:\(String(format2: n))Z",
            commitDate: "2026-01-02T00:00:\(String(format2: n))Z", branch: "main")
    }

    func storesAndReadsBack() throws {
        let store = try open()
        let results = (1...3).map { HistoryFixtures.result(commit: $0) }
        for (i, result) in results.enumerated() { try store.save(result, commit: commitInfo(i + 1)) }
        let entries = try open().entries()
        #expect(entries.map(\.commit.hash) == (1...3).map(HistoryFixtures.commit))
        for (entry, result) in zip(entries, results) {
            #expect(entry.commit.parents == commitInfo(Int(entry.commit.hash.suffix(1), radix: 16)!).parents)
            #expect(entry.tier == "host" && entry.metric == .time && entry.target == SeriesTarget(kind: .manifest, name: "default"))
            #expect(entry.runCount == 3 && !entry.dirty)
            #expect(entry.environment == EnvironmentKey.of(HistoryFixtures.host))
            #expect(entry.total == result.runs[1].total)  // the median of three rising totals
            // The document comes back byte for byte as the result writer writes it.
            #expect(try store.document(entry) == ResultFile.encode(result))
        }
    }

    func replacesTheSameKey() throws {
        let store = try open()
        try store.save(HistoryFixtures.result(commit: 1, runs: 3), commit: commitInfo(1))
        let again = HistoryFixtures.result(commit: 1, runs: 5)
        try store.save(again, commit: CommitInfo(hash: HistoryFixtures.commit(1)))
        try store.save(HistoryFixtures.result(commit: 1, tier: "slow-phone"), commit: commitInfo(1))
        let entries = try store.entries()
        #expect(entries.count == 2)
        let host = try #require(try store.find(commit: HistoryFixtures.commit(1), tier: nil, target: "default", metric: .time))
        #expect(host.runCount == 5)
        // What an earlier save knew of the commit (parents, dates) is kept when a later one does not know it.
        #expect(host.commit == commitInfo(1))
        #expect(try store.document(host) == ResultFile.encode(again))
        #expect(try store.find(commit: HistoryFixtures.commit(1), tier: "slow-phone", target: "default", metric: .time) != nil)
        #expect(try store.find(commit: HistoryFixtures.commit(2), tier: nil, target: "default", metric: .time) == nil)
    }

    func buildsSeries() throws {
        let store = try open()
        // Saved out of order; commit 9 is off the first-parent line; a dirty result and another host are kept apart.
        for n in [3, 1, 2, 9] { try store.save(HistoryFixtures.result(commit: n, phases: 2, runs: 4), commit: commitInfo(n)) }
        try store.save(HistoryFixtures.result(commit: 4, phases: 2, dirty: true), commit: commitInfo(4))
        try store.save(HistoryFixtures.result(commit: 2, phases: 2, host: HistoryFixtures.otherHost), commit: commitInfo(2))
        let line = (1...4).map(HistoryFixtures.commit)
        let series = try open().series(order: .firstParent(line))
        let here = series.filter { $0.key.environment == EnvironmentKey.of(HistoryFixtures.host) }
        let other = series.filter { $0.key.environment == EnvironmentKey.of(HistoryFixtures.otherHost) }
        #expect(Set(here.map(\.key.phase)) == ["phase 0", "phase 1", "Time to first frame", SeriesKey.totalPhase, SeriesKey.peakMemoryPhase])
        #expect(other.count == here.count && other.allSatisfy { $0.points.map(\.commit.hash) == [HistoryFixtures.commit(2)] })
        let phase1 = try #require(here.first { $0.key.phase == "phase 1" })
        #expect(phase1.points.map(\.commit.hash) == (1...3).map(HistoryFixtures.commit))
        for point in phase1.points {
            let n = Int(point.commit.hash.suffix(1), radix: 16)!
            #expect(point.runs == (0..<4).map { HistoryFixtures.duration(commit: n, phase: 1, run: $0) })
        }
        let memory = try #require(here.first { $0.key.phase == SeriesKey.peakMemoryPhase })
        #expect(memory.points[0].runs == [10_001_000, 10_001_001, 10_001_002, 10_001_003])
        // By date: commit 9 (the latest commit date) joins, last.
        let byDate = try store.series(order: .date).first { $0.key == phase1.key }
        #expect(byDate?.points.map(\.commit.hash) == [1, 2, 3, 9].map(HistoryFixtures.commit))
        #expect(series == series.sorted { $0.key < $1.key })
    }

    /// 8 writers at once, each with its own connection: every result stored, each document intact.
    func parallelWriters() throws {
        let writers = 8, each = 4
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: writers) { w in
            do {
                let store = try open()
                for i in 0..<each {
                    let n = 100 + w * each + i
                    try store.save(HistoryFixtures.result(commit: n, phases: 10, runs: 5), commit: commitInfo(n))
                }
            } catch {
                failures.withLock { $0.append("writer \(w): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let store = try open()
        let entries = try store.entries()
        #expect(entries.count == writers * each)
        let numbers = Dictionary(uniqueKeysWithValues: (100..<(100 + writers * each)).map { (HistoryFixtures.commit($0), $0) })
        #expect(Set(entries.map(\.commit.hash)) == Set(numbers.keys))
        for entry in entries {
            let n = try #require(numbers[entry.commit.hash])
            #expect(try store.document(entry) == ResultFile.encode(HistoryFixtures.result(commit: n, phases: 10, runs: 5)))
        }
    }

    /// A history written by a later launchprof is refused, naming it, and left as it was.
    func refusesAFutureSchema(setVersion: (Int) throws -> Void) throws {
        let store = try open()
        try store.save(HistoryFixtures.result(commit: 1), commit: commitInfo(1))
        try setVersion(99)
        #expect {
            _ = try open().entries()
        } throws: { error in
            let error = error as? HistoryError
            return error?.store == store.location && error?.reason.contains("newer launchprof (schema version 99") == true
        }
        #expect {
            try open().save(HistoryFixtures.result(commit: 2), commit: commitInfo(2))
        } throws: { ($0 as? HistoryError)?.reason.contains("newer launchprof") == true }
        try setVersion(1)
        #expect(try open().entries().map(\.commit.hash) == [HistoryFixtures.commit(1)])
    }
}

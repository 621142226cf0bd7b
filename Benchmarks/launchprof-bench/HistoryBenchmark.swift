#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchHistory

/// `make bench`: the results history (docs/history.md). What `record --store` adds to a record
/// (goal ≤ 50 ms): in process, opening a SQLite history and storing one result; end to end, `record`
/// into a history beside `run --output` of the same launch, alternated. And how small a stored result
/// is: bytes per 50-phase × 10-run result in a SQLite history of 200 of them.
/// `launchprof-bench history-store` runs only this benchmark.
struct HistoryBenchmark {
    var phases = 50
    var runs = 10
    var stored = 200
    let executable = benchedLaunchprof
    let helper = DiffScaleBenchmark()

    func report() {
        do { try run() } catch { print("history: failed: \(error)") }
    }

    func run() throws {
        var template = Array("/tmp/launchprof-history-bench-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else {
            print("history: cannot create a temporary directory")
            return
        }
        defer { FileIO.removeTree(directory) }
        try size(in: directory)
        try storeTime(in: directory)
        endToEnd(in: directory)
    }

    /// Bytes per result: the file after a checkpoint, over the results in it; and what a document takes.
    func size(in directory: String) throws {
        let path = directory + "/size.sqlite"
        let store = try StoreLocation(path).open(create: true)
        var noise = DiffScaleBenchmark.Generator(seed: 7)
        for n in 0..<stored { try store.save(result(commit: n, noise: &noise), commit: CommitInfo(hash: hash(n), parents: [hash(n - 1)])) }
        let db = try SQLiteDatabase(path: path, create: false)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)", [])
        try db.execute("VACUUM", [])
        let bytes = fileSize(path)
        let document = try db.execute("SELECT AVG(LENGTH(document)), AVG(document_size) FROM results", [])
        let runBytes = try db.execute("SELECT SUM(LENGTH(runs)) FROM phase_runs", [])
        let deflated = document.first?[0].real ?? .nan, json = document.first?[1].real ?? .nan
        let packed = (runBytes.first?[0].real ?? .nan) / Double(stored)
        print(
            "history: bytes per result (\(phases) phases x \(runs) runs, SQLite, \(stored) results)  \(Int(Double(bytes) / Double(stored))) B: the document deflated \(Int(deflated)) B (of \(Int(json)) B of JSON), run values \(Int(packed)) B"
        )
        print("history: a 10,000-result history of such results        about \(Int(Double(bytes) / Double(stored) * 10_000 / 1e6)) MB")
    }

    /// What storing adds inside the process: open (the schema checked) and one result saved, median of 21.
    func storeTime(in directory: String) throws {
        let path = directory + "/time.sqlite"
        var noise = DiffScaleBenchmark.Generator(seed: 9)
        _ = try StoreLocation(path).open(create: true)
        var times: [Double] = []
        for n in 0..<21 {
            let result = result(commit: 1000 + n, noise: &noise)
            let start = MonotonicClock.nanoseconds()
            try StoreLocation(path).open(create: true).save(result, commit: CommitInfo(hash: hash(1000 + n)))
            times.append(Double(MonotonicClock.nanoseconds() - start) / 1e6)
        }
        times.sort()
        print(
            "history: open + store one result in process             \(format(times[10])) ms  (goal <= 50 ms for all of record --store: \(times[10] <= 50 ? "met" : "missed"))"
        )
    }

    /// `record --store DB` against `run --output FILE` of one run of the default launch, alternated; the difference of the medians.
    func endToEnd(in directory: String) {
        guard access(executable, X_OK) == 0 else {
            print("history: record --store end to end: skipped (\(executable) not built)")
            return
        }
        let common = ["--runs", "1", "--warmup", "0", "--quiet", "--snapshot", directory + "/s.png"]
        var record: [Double] = [], plain: [Double] = []
        for i in 0..<15 {
            let a = { helper.spawn([executable, "record", "--store", directory + "/e2e.sqlite"] + common) }
            let b = { helper.spawn([executable, "run", "--output", directory + "/plain.json"] + common) }
            let first = i % 2 == 0 ? a() : b(), second = i % 2 == 0 ? b() : a()
            guard let x = first, let y = second, x.2 == 0, y.2 == 0 else {
                print("history: record --store end to end: a launch failed (record in a git work tree: run make bench from the repository)")
                return
            }
            record.append((i % 2 == 0 ? x : y).0 * 1000)
            plain.append((i % 2 == 0 ? y : x).0 * 1000)
        }
        record.sort()
        plain.sort()
        let added = record[7] - plain[7]
        print(
            "history: record --store vs run --output, end to end   \(format(record[7])) ms vs \(format(plain[7])) ms: +\(format(added)) ms (goal <= 50 ms: \(added <= 50 ? "met" : "missed"); load average \(helper.loadAverage()))"
        )
    }

    func hash(_ n: Int) -> String {
        let hex = String(max(n, 0), radix: 16)
        return String(repeating: "a", count: 40 - hex.count) + hex
    }

    /// A result of `phases` phases (nested two deep) × `runs` runs with 3% noise.
    func result(commit n: Int, noise: inout DiffScaleBenchmark.Generator) -> LaunchResult {
        let records = (0..<runs).map { r -> RunRecord in
            var start = 0.0
            let phaseRecords = (0..<phases).map { p -> PhaseRecord in
                let duration = 0.0002 * Double(1 + p % 7) * (1 + 0.03 * (noise.unit() - 0.5))
                defer { start += duration }
                return PhaseRecord(
                    name: "phase \(p)", kind: .cpu, start: start, duration: duration, depth: p % 5 == 0 ? 0 : 1, parent: p % 5 == 0 ? nil : p - p % 5)
            }
            var run = RunRecord(index: r + 1, pid: 1000 + r, total: start, phases: phaseRecords, marks: [MarkRecord(name: "first frame", time: start * 0.6)])
            run.peakResidentBytes = 15_000_000 + Int(noise.unit() * 100_000)
            return run
        }
        return LaunchResult(
            date: "2026-11-26T00:00:00Z", manifest: ManifestInfo(name: "default", path: "Fixtures/default/manifest.json", sha256: "abc"),
            host: HostInfo.current(), git: GitInfo(commit: hash(n), branch: "main", dirty: false),
            configuration: RunConfiguration(runs: runs, warmup: 1, mode: .warm, timeout: 60), runs: records)
    }

    func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

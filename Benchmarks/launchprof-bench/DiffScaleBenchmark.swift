#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchStats

/// `make bench`: `launchprof diff` of two results with 10,000 phases × 100 runs each (about 257 MB
/// of JSON apiece), end to end through the release binary, against the goal of 1 s and 300 MB of
/// peak memory; the comparison alone (the statistics over the two phase tables) against 200 ms; and,
/// to show where the time goes, the table reader on one file and on both at once (two threads).
/// `launchprof-bench diff-scale [PHASES RUNS]` runs only this benchmark.
///
/// The two files are generated here, in a temporary directory, as the encoder writes results
/// (pretty-printed, sorted keys): 100 top-level phases of 99 children each, durations from 10 µs to
/// 20 ms with 3% run-to-run noise; the candidate has 1% of its phases 10% slower.
struct DiffScaleBenchmark {
    var phases = 10_000
    var runs = 100
    let executable = benchedLaunchprof

    /// Runs the benchmark and prints its lines (or why it could not run).
    func report() {
        do { try run() } catch { print("diff at scale: failed: \(error)") }
    }

    func run() throws {
        var template = Array("/tmp/launchprof-diff-scale-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else {
            print("diff at scale: cannot create a temporary directory")
            return
        }
        let a = directory + "/a.json", b = directory + "/b.json"
        defer { if getenv("LAUNCHPROF_BENCH_KEEP") == nil { unlink(a); unlink(b); rmdir(directory) } else { print("kept \(directory)") } }
        let (tableA, bytesA) = try write(a, seed: 1, slower: false)
        let (tableB, _) = try write(b, seed: 2, slower: true)
        print("diff at scale: \(phases) phases x \(runs) runs, \(bytesA / 1_000_000) MB per result (load average \(loadAverage()))")

        // The reader alone: one file, then both at once on two threads (median of 3).
        var one: [Double] = [], both: [Double] = []
        for _ in 0..<3 {
            var start = MonotonicClock.nanoseconds()
            guard (try? ResultTableReader.read(a)) != nil else {
                print("diff at scale: the table reader refused the generated file")
                return
            }
            one.append(Double(MonotonicClock.nanoseconds() - start) / 1e9)
            start = MonotonicClock.nanoseconds()
            _ = ResultTableReader.read(all: [a, b])
            both.append(Double(MonotonicClock.nanoseconds() - start) / 1e9)
        }
        one.sort()
        both.sort()
        print("diff at scale: reading one result          \(format(one[1] * 1000)) ms  (\(format(Double(bytesA) / one[1] / 1e6)) MB/s)")
        print("diff at scale: reading both at once        \(format(both[1] * 1000)) ms  (\(format(both[1] / one[1]))x one)")

        // The analysis alone, on tables built from the same values (median of 3).
        var analysis: [Double] = []
        var comparison: Comparison?
        for _ in 0..<3 {
            let start = MonotonicClock.nanoseconds()
            comparison = Comparison(baseline: tableA, candidate: tableB)
            analysis.append(Double(MonotonicClock.nanoseconds() - start) / 1e9)
        }
        analysis.sort()
        let slower = comparison?.regressions.count ?? 0
        let bootstrapped = comparison?.rows.filter { $0.intervalMethod == .bootstrap }.count ?? 0
        print(
            "diff at scale: comparison alone           \(format(analysis[1] * 1000)) ms  (goal <= 200 ms, \(format(analysis[1] / 0.2))x: \(verdict(analysis[1] <= 0.2)); \(slower) slower, \(bootstrapped) phases bootstrapped)"
        )

        // End to end: the real binary, output discarded; wall time and peak resident memory (median of 3).
        var walls: [Double] = [], peaks: [Int] = []
        for _ in 0..<3 {
            guard let (wall, peak, status) = spawn([executable, "diff", a, b]) else {
                print("diff at scale: cannot run \(executable) (make bench builds it)")
                return
            }
            guard status == 0 || status == 1 else {
                print("diff at scale: launchprof diff exited with status \(status)")
                return
            }
            walls.append(wall)
            peaks.append(peak)
        }
        walls.sort()
        peaks.sort()
        let wall = walls[1], peak = peaks[1]
        print("diff at scale: launchprof diff end to end  \(format(wall * 1000)) ms  (goal <= 1000 ms: \(format(wall / 1.0))x the goal, \(verdict(wall <= 1)))")
        print(
            "diff at scale: peak memory                 \(peak / (1 << 20)) MiB  (goal <= 300 MB: \(format(Double(peak) / 300e6))x the goal, \(verdict(peak <= 300_000_000)))"
        )
        // The CI gate on the same files: `check --result B --baseline A` (exit 1: B is slower).
        var checkWalls: [Double] = [], checkPeaks: [Int] = []
        for _ in 0..<3 {
            guard let (wall, peak, status) = spawn([executable, "check", "--result", b, "--baseline", a]), status == 0 || status == 1 else {
                print("diff at scale: launchprof check failed")
                return
            }
            checkWalls.append(wall)
            checkPeaks.append(peak)
        }
        let checkWall = checkWalls.sorted()[1], checkPeak = checkPeaks.sorted()[1]
        print(
            "diff at scale: launchprof check end to end \(format(checkWall * 1000)) ms  (goal <= 1000 ms: \(format(checkWall / 1.0))x the goal, \(verdict(checkWall <= 1))), peak \(checkPeak / (1 << 20)) MiB"
        )
        print("diff at scale: load average after          \(loadAverage())")
    }

    func verdict(_ met: Bool) -> String { met ? "met" : "missed" }

    /// The 1-minute load average (`/proc/loadavg`), to say how busy the machine was.
    func loadAverage() -> String {
        guard let file = fopen("/proc/loadavg", "r") else { return "unknown" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, 64, file) != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ").first.map(String.init)
            ?? "unknown"
    }

    /// Runs `arguments` with stdout and stderr to /dev/null: wall seconds, peak RSS bytes, exit status.
    func spawn(_ arguments: [String]) -> (Double, Int, Int32)? {
        timedSpawn(arguments).map { ($0.wall, $0.peak, $0.status) }
    }

    /// Writes one result and returns the phase table of its durations (as a reader would build it) and its size.
    func write(_ path: String, seed: UInt64, slower: Bool) throws -> (PhaseTable, Int) {
        guard let file = fopen(path, "w") else { throw CoreError.system(path: path, action: "write", reason: String(cString: strerror(errno))) }
        defer { fclose(file) }
        var out: [UInt8] = []
        out.reserveCapacity(1 << 21)
        var written = 0
        func emit(_ text: String) {
            out.append(contentsOf: text.utf8)
            if out.count >= 1 << 20 { written += fwrite(out, 1, out.count, file); out.removeAll(keepingCapacity: true) }
        }
        // Each phase's typical duration, the same in both files (seed 0); the noise differs per file.
        var shape = Generator(seed: 0)
        let base = (0..<phases).map { _ in 10e-6 * pow(2000, shape.unit()) }
        let slowed = (0..<phases).map { _ in shape.unit() < 0.01 }
        var noise = Generator(seed: seed)
        let perTop = 100
        var rows = (0..<phases).map { i -> PhaseTable.Row in
            let top = i % perTop == 0
            let name = top ? "phase \(i / perTop)" : "step \(i % perTop)"
            return PhaseTable.Row(path: top ? name : "phase \(i / perTop)/\(name)", name: name, depth: top ? 0 : 1, kind: .cpu, afterLaunch: false)
        }
        var totals: [Double] = []
        emit(
            "{\n  \"configuration\" : {\n    \"metric\" : \"time\",\n    \"mode\" : \"warm\",\n    \"runs\" : \(runs),\n    \"timeout\" : 60,\n    \"warmup\" : 1\n  },\n"
        )
        emit(
            "  \"date\" : \"2026-11-22T00:00:00Z\",\n  \"host\" : {\n    \"architecture\" : \"x86_64\",\n    \"cores\" : 2,\n    \"cpuModel\" : \"bench\",\n    \"hostname\" : \"bench\",\n    \"os\" : \"Linux\",\n    \"swiftVersion\" : \"6.3\"\n  },\n"
        )
        emit("  \"manifest\" : {\n    \"name\" : \"scale\",\n    \"path\" : \"scale.json\",\n    \"sha256\" : \"\"\n  },\n  \"runs\" : [\n")
        for r in 0..<runs {
            emit(
                "    {\n      \"counters\" : [\n\n      ],\n      \"deferred\" : [\n\n      ],\n      \"index\" : \(r + 1),\n      \"marks\" : [\n\n      ],\n      \"phases\" : [\n"
            )
            var clock = 0.0
            var topIndex = 0
            for i in 0..<phases {
                let factor = (slower && slowed[i] ? 1.10 : 1.0) * (1 + 0.03 * (noise.unit() + noise.unit() + noise.unit() - 1.5) * 2)
                let nanoseconds = (base[i] * factor * 1e9).rounded()
                let duration = nanoseconds / 1e9
                rows[i].durations.append(duration)
                let top = i % perTop == 0
                if top { topIndex = i % phases }
                let parent = top ? "" : "          \"parent\" : \(topIndex),\n"
                emit(
                    "        {\n          \"afterLaunch\" : false,\n          \"depth\" : \(top ? 0 : 1),\n          \"duration\" : \(duration),\n          \"kind\" : \"cpu\",\n          \"name\" : \"\(rows[i].name)\",\n\(parent)          \"start\" : \(clock),\n          \"thread\" : 0\n        }\(i == phases - 1 ? "" : ",")\n"
                )
                if !top { clock += duration }
            }
            totals.append(clock)
            emit("      ],\n      \"pid\" : \(1000 + r),\n      \"total\" : \(clock)\n    }\(r == runs - 1 ? "" : ",")\n")
        }
        emit(
            "  ],\n  \"schemaVersion\" : 2,\n  \"tool\" : {\n    \"name\" : \"launchprof\",\n    \"version\" : \"0.1.0\"\n  },\n  \"warnings\" : [\n\n  ]\n}\n")
        written += fwrite(out, 1, out.count, file)
        let table = PhaseTable(rows: rows, totals: totals, hostTotals: totals, instructionTotals: [], deferred: [], runCount: runs)
        return (table, written)
    }

    /// SplitMix64, as uniform doubles in [0, 1).
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }
}

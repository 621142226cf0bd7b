#if canImport(Glibc)
import Glibc
#endif
import LaunchChangePoints
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchHistory
import LaunchStats

/// `make bench`: change-point detection (`history detect`, issue 30) on a synthetic history built from
/// real runs of the default launch, and at scale. `launchprof-bench change-points [DIR]` runs only this
/// (DIR: reuse the result files a previous run kept with LAUNCHPROF_BENCH_KEEP=1).
///
/// - Quality, wall time: `launchprof run --runs 10` of the default manifest, `invocations` times (and
///   once with `--metric instructions --runs 3`). 500 commits: each commit takes one of the recorded
///   invocations at random and resamples 10 of its runs per phase, so both the run-to-run noise and
///   the invocation-to-invocation shifts are real. Five steps of 2–10% (either sign) are planted in
///   random phases at random commits (seeded), in that phase alone. Goals: all 5 found at their commit
///   ±1, at most 1 other change point over every phase.
/// - Quality, instructions: the same commits, each taking one of the 3 counted runs at random; five
///   steps planted (one of them a single instruction). Goal: exactly the planted commits.
/// - Scale: 10,000 commits × 50 phases of 10 runs, detected in ≤ 2 s (median of 3).
struct HistoryDetectionBenchmark {
    var commits = 500
    var invocations = 5
    var seed: UInt64 = 30
    var reuse: String?
    let executable = benchedLaunchprof

    func report() {
        do { try run() } catch { print("history detect: failed: \(error)") }
    }

    struct Planted: CustomStringConvertible {
        var phase: String
        var commit: Int
        var change: Double
        var description: String { "\(phase) @\(commit) \(change >= 0 ? "+" : "")\(format(change * 100))%" }
    }

    func run() throws {
        let directory = try reuse ?? recordRuns()
        defer {
            if reuse == nil {
                if getenv("LAUNCHPROF_BENCH_KEEP") == nil {
                    for name in FileIO.entries(of: directory) { unlink(directory + "/" + name) }
                    rmdir(directory)
                } else {
                    print("kept \(directory)")
                }
            }
        }
        let timed = try (1...invocations).map { try ResultTableReader.read("\(directory)/time-\($0).json").table }
        let counted = try ResultTableReader.read("\(directory)/instructions.json").table
        try wallTimeQuality(timed, .pooled)
        try wallTimeQuality(timed, .byInvocation)
        try instructionQuality(counted)
        try scale(timed)
        try storeScale(timed)
    }

    /// Records the real runs: `invocations` timed results and one with instruction counts.
    func recordRuns() throws -> String {
        var template = Array("/tmp/launchprof-history-bench-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw CoreError.system(path: "/tmp", action: "create a directory in", reason: "mkdtemp failed")
        }
        let spawner = DiffScaleBenchmark()
        for i in 1...invocations {
            guard let (_, _, status) = spawner.spawn([executable, "run", "--runs", "10", "--output", "\(directory)/time-\(i).json"]), status == 0 else {
                throw CoreError.system(path: executable, action: "run", reason: "launchprof run failed (make bench builds it)")
            }
        }
        setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
        guard
            let (seconds, _, status) = spawner.spawn([
                executable, "run", "--runs", "3", "--metric", "instructions", "--output", "\(directory)/instructions.json"
            ]), status == 0
        else {
            throw CoreError.system(path: executable, action: "run", reason: "launchprof run --metric instructions failed (is valgrind installed?)")
        }
        print("history detect: recorded \(invocations) x 10 timed runs and 3 counted runs of the default launch (the counting took \(format(seconds)) s)")
        return directory
    }

    /// Five planted steps in distinct random phases, at commits at least 25 apart and 25 from either end.
    func plant(_ phases: [String], generator: inout SplitMix64, change: (inout SplitMix64) -> Double) -> [Planted] {
        var chosen: [Planted] = []
        var phasePool = phases
        while chosen.count < 5 && !phasePool.isEmpty {
            let commit = Int.random(in: 25..<(commits - 25), using: &generator)
            guard !chosen.contains(where: { abs($0.commit - commit) < 25 }) else { continue }
            let phase = phasePool.remove(at: Int.random(in: 0..<phasePool.count, using: &generator))
            chosen.append(Planted(phase: phase, commit: commit, change: change(&generator)))
        }
        return chosen
    }

    /// How a commit's 10 runs are drawn from the recorded ones.
    enum Resampling: String {
        /// From all the phase's recorded runs (run-to-run noise).
        case pooled = "runs pooled"
        /// From the runs of one recorded invocation picked at random (plus the shifts between invocations).
        case byInvocation = "one invocation per commit"
    }

    func wallTimeQuality(_ timed: [PhaseTable], _ resampling: Resampling) throws {
        var generator = SplitMix64(seed: seed)
        let phases = timed[0].rows.map(\.path).filter { path in timed.allSatisfy { $0.rows.contains { $0.path == path && $0.durations.count >= 2 } } }
        let planted = plant(phases, generator: &generator) { g in
            Double.random(in: 0.02...0.10, using: &g) * (Bool.random(using: &g) ? 1 : -1)
        }
        let rowsByPath = timed.map { table in Dictionary(table.rows.map { ($0.path, $0.durations) }, uniquingKeysWith: { a, _ in a }) }
        var series: [ChangePointSeries] = []
        let invocationOfCommit = (0..<commits).map { _ in Int.random(in: 0..<timed.count, using: &generator) }
        for phase in phases {
            let steps = planted.filter { $0.phase == phase }
            let pooled = rowsByPath.flatMap { $0[phase]! }
            let points = try (0..<commits).map { commit -> MeasuredPoint in
                let pool = resampling == .pooled ? pooled : rowsByPath[invocationOfCommit[commit]][phase]!
                let factor = steps.filter { commit >= $0.commit }.reduce(1.0) { $0 * (1 + $1.change) }
                return try MeasuredPoint(commit: "c\(commit)", measured: (0..<10).map { _ in pool[Int.random(in: 0..<pool.count, using: &generator)] * factor })
            }
            series.append(try ChangePointSeries(key: key(phase, metric: .time), points: points))
        }
        let found = try ChangePointDetector().detect(series)
        let (hits, falses) = score(found, planted)
        print(
            "history detect: wall time (\(resampling.rawValue)), \(commits) commits x \(phases.count) phases, planted \(planted.map(\.description).joined(separator: ", "))"
        )
        print(
            "history detect: wall time (\(resampling.rawValue)): \(hits.count) of \(planted.count) planted steps found at their commit ±1 (goal 5: \(verdict(hits.count == planted.count))), "
                + "\(falses.count) false change points (goal <= 1: \(verdict(falses.count <= 1)))")
        for miss in planted where !hits.contains(where: { $0.phase == miss.phase }) {
            let nearest = found.first { $0.key.phase == miss.phase }?.changePoints.map { "@\($0.index) p \($0.pValue)" } ?? []
            print("history detect:   missed \(miss) (found in that phase: \(nearest.isEmpty ? "none" : nearest.joined(separator: ", ")))")
        }
        for (phase, point) in falses {
            print("history detect:   false: \(phase) @\(point.index) \(format((point.relativeChange ?? 0) * 100))% p \(point.pValue)")
        }
    }

    /// Each commit counted 3 times, each count one of the 3 recorded runs' (drawn at random): a phase
    /// whose recorded counts differ is then noisy and detected statistically, the others exactly.
    func instructionQuality(_ counted: PhaseTable) throws {
        var generator = SplitMix64(seed: seed &+ 1)
        let rows = counted.rows.filter { !$0.instructions.isEmpty }
        let deterministic = rows.filter { Set($0.instructions).count == 1 }.map(\.path)
        // One step of a single instruction in a deterministic phase (a change of 0 marks it), four of 2–10% anywhere.
        var planted = plant(deterministic, generator: &generator) { _ in 0 }.prefix(1).map { $0 }
        for step in plant(
            rows.map(\.path).filter { $0 != planted.first?.phase }, generator: &generator,
            change: { g in
                Double.random(in: 0.02...0.10, using: &g) * (Bool.random(using: &g) ? 1 : -1)
            }) where planted.count < 5 && !planted.contains(where: { abs($0.commit - step.commit) < 25 })
        {
            planted.append(step)
        }
        var series: [ChangePointSeries] = []
        for row in rows {
            let steps = planted.filter { $0.phase == row.path }
            let points = try (0..<commits).map { commit -> MeasuredPoint in
                let counts = (0..<3).map { _ in row.instructions[Int.random(in: 0..<row.instructions.count, using: &generator)] }
                let stepped = counts.map { count in
                    steps.filter { commit >= $0.commit }.reduce(count) { count, step in step.change == 0 ? count + 1 : (count * (1 + step.change)).rounded() }
                }
                return try MeasuredPoint(commit: "c\(commit)", counts: stepped.map { UInt64($0) })
            }
            series.append(try ChangePointSeries(key: key(row.path, metric: .instructions), points: points))
        }
        let found = try ChangePointDetector().detect(series)
        let exactHits = found.flatMap { s in s.changePoints.filter { p in planted.contains { $0.phase == s.key.phase && $0.commit == p.index } } }
        let falses = found.flatMap { s in
            s.changePoints.filter { p in !planted.contains { $0.phase == s.key.phase && $0.commit == p.index } }.map { (s.key.phase, $0) }
        }
        let spread = rows.map { ($0.instructions.max() ?? 0) - ($0.instructions.min() ?? 0) }.max() ?? 0
        print(
            "history detect: instructions, \(commits) commits x \(rows.count) phases x 3 counts (\(rows.count - deterministic.count) phases whose counts differ between runs, "
                + "by up to \(Int(spread)) instructions: tested statistically), planted \(planted.map(\.description).joined(separator: ", ")) (+0% is one instruction)"
        )
        print(
            "history detect: instructions: \(exactHits.count) of \(planted.count) planted steps found at exactly their commit, \(falses.count) false "
                + "(goal: all, none false: \(verdict(exactHits.count == planted.count && falses.isEmpty)))")
        for (phase, point) in falses.prefix(5) { print("history detect:   false: \(phase) @\(point.index) p \(point.pValue)") }
    }

    /// 10,000 commits × 50 phases × 10 runs, each phase's runs resampled from one of the real phases.
    func scale(_ timed: [PhaseTable]) throws {
        var generator = SplitMix64(seed: seed &+ 2)
        let pools = timed[0].rows.map(\.durations).filter { $0.count >= 2 }
        let scaleCommits = 10_000, scalePhases = 50
        let series = try (0..<scalePhases).map { phase -> ChangePointSeries in
            let pool = pools[phase % pools.count]
            let points = try (0..<scaleCommits).map { commit in
                try MeasuredPoint(commit: "c\(commit)", measured: (0..<10).map { _ in pool[Int.random(in: 0..<pool.count, using: &generator)] })
            }
            return try ChangePointSeries(key: key("phase \(phase)", metric: .time), points: points)
        }
        let detector = try ChangePointDetector()
        var times: [Double] = []
        var found = 0
        for _ in 0..<3 {
            let start = MonotonicClock.nanoseconds()
            found = detector.detect(series).reduce(0) { $0 + $1.changePoints.count }
            times.append(Double(MonotonicClock.nanoseconds() - start) / 1e9)
        }
        let median = medianOf(times)
        print(
            "history detect: \(scaleCommits) commits x \(scalePhases) phases x 10 runs: \(format(median * 1000)) ms (goal <= 2000 ms: \(verdict(median <= 2))), "
                + "\(found) change points in this noise (load average \(machineLoad()))")
    }

    /// `launchprof history detect` end to end on a SQLite history of 10,000 results × 50 phases × 10
    /// runs (runs resampled from the real ones), against the 2 s goal (median of 3). The history is made
    /// once through the store (`LAUNCHPROF_BENCH_HISTORY_RESULTS` sets how many results) and removed after.
    func storeScale(_ timed: [PhaseTable]) throws {
        let results = getenv("LAUNCHPROF_BENCH_HISTORY_RESULTS").flatMap { Int(String(cString: $0)) }.map { min(max($0, 10), 100_000) } ?? 10_000
        var template = Array("/tmp/launchprof-history-store-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw CoreError.system(path: "/tmp", action: "create a directory in", reason: "mkdtemp failed")
        }
        let database = directory + "/history.sqlite"
        defer {
            if getenv("LAUNCHPROF_BENCH_KEEP") == nil {
                for name in FileIO.entries(of: directory) { unlink(directory + "/" + name) }
                rmdir(directory)
            } else {
                print("kept \(directory)")
            }
        }
        var generator = SplitMix64(seed: seed &+ 3)
        let pools = timed[0].rows.map(\.durations).filter { $0.count >= 2 }
        let host = HostInfo.current()
        var start = MonotonicClock.nanoseconds()
        do {
            let store = try StoreLocation.sqlite(database).open(create: true)
            for i in 0..<results {
                let runs = (0..<10).map { run -> RunRecord in
                    var clock = 0.0
                    let phases = (0..<50).map { phase -> PhaseRecord in
                        let pool = pools[phase % pools.count]
                        let duration = pool[Int.random(in: 0..<pool.count, using: &generator)]
                        defer { clock += duration }
                        return PhaseRecord(name: "phase \(phase)", start: clock, duration: duration)
                    }
                    return RunRecord(index: run + 1, total: clock, phases: phases)
                }
                let hex = String(i, radix: 16)
                let hash = hex + String(repeating: "0", count: 40 - hex.count)
                let second = i % 60, minute = (i / 60) % 60, hour = i / 3600
                let date = "2026-01-\(10 + hour / 24)T\(10 + hour % 24):\(minute < 10 ? "0" : "")\(minute):\(second < 10 ? "0" : "")\(second)Z"
                let result = LaunchResult(
                    date: date, manifest: ManifestInfo(name: "default", path: "m", sha256: ""), host: host,
                    git: GitInfo(commit: hash, branch: "main", dirty: false), runs: runs)
                try store.save(result, commit: CommitInfo(hash: hash, commitDate: date))
            }
        }
        let made = Double(MonotonicClock.nanoseconds() - start) / 1e9
        var bytes = 0
        for name in FileIO.entries(of: directory) {
            var info = stat()
            if stat(directory + "/" + name, &info) == 0 { bytes += Int(info.st_size) }
        }
        // Outside a git work tree (the directory), so the commits are ordered by date.
        var walls: [Double] = []
        let spawner = DiffScaleBenchmark()
        var cwd = [CChar](repeating: 0, count: 4096)
        let absolute = (getcwd(&cwd, cwd.count).map { String(cString: $0) } ?? ".") + "/" + executable
        for _ in 0..<3 {
            start = MonotonicClock.nanoseconds()
            guard let (wall, _, status) = spawner.spawn(["/bin/sh", "-c", "cd \(directory) && exec \(absolute) history detect --store history.sqlite"]),
                status == 0
            else {
                print("history detect: the store at scale: launchprof history detect failed")
                return
            }
            walls.append(wall)
        }
        let median = medianOf(walls)
        print(
            "history detect: a SQLite history of \(results) results x 50 phases x 10 runs (\(bytes / results) bytes per result, made in \(format(made)) s): "
                + "`history detect` end to end \(format(median * 1000)) ms (goal <= 2000 ms: \(verdict(median <= 2)); load average \(machineLoad()))")
    }

    func key(_ phase: String, metric: Metric) -> SeriesKey {
        SeriesKey(environment: "bench", tier: "host", metric: metric, target: SeriesTarget(kind: .manifest, name: "default"), phase: phase)
    }

    /// The planted steps found at their commit ±1, and every other change point.
    func score(_ found: [SeriesChangePoints], _ planted: [Planted]) -> (hits: [Planted], falses: [(String, ChangePoint)]) {
        var hits: [Planted] = [], falses: [(String, ChangePoint)] = []
        for series in found {
            for point in series.changePoints {
                if let step = planted.first(where: { $0.phase == series.key.phase && abs($0.commit - point.index) <= 1 }) {
                    if !hits.contains(where: { $0.phase == step.phase && $0.commit == step.commit }) { hits.append(step) }
                } else {
                    falses.append((series.key.phase, point))
                }
            }
        }
        return (hits, falses)
    }

    func verdict(_ met: Bool) -> String { met ? "met" : "missed" }
}

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LaunchCore
import LaunchStats
import LaunchTiers

/// `launchprof-bench tier-drift [INVOCATIONS] [RUNS]`: how far a tier's verdict between two separate
/// invocations can be trusted on this host (issue 27, item 4). It makes `INVOCATIONS` invocations of
/// `run --tier iphone-3gs --runs RUNS` on one cached calibration (the gate's manifest, unchanged), one
/// after another, and splits what moves an invocation's median into its own sampling error (a
/// bootstrap within each invocation) and what the host adds between invocations (the medians' spread
/// beyond it). From that spread it reckons what the tier gate can reach with check's 5% threshold —
/// the share of comparisons of two unchanged invocations that differ by more than it, the chance of
/// 0 false alarms in 20 such trials, and the share of 10% slowdowns seen above it — and counts the
/// first directly over every ordered pair of the invocations. Times are compared as logarithms, so
/// the spreads are relative. Nothing here is a goal: it is the floor a separate-invocation gate
/// stands on (BENCHMARKS.md).
struct TierDriftBenchmark {
    var invocations = 12
    var runs = 20
    let executable = benchedLaunchprof
    /// check's default relative threshold, and the gate's slowdown (both as fractions).
    static let threshold = 0.05
    static let slowdown = 0.10

    /// One invocation's runs: each run's total, and its drawing's duration.
    struct Invocation {
        var totals: [Double]
        var drawings: [Double]
        /// The core's clock around the invocation (GHz, the mean of a probe before and after), or `nil`.
        var clock: Double?
    }

    func report() {
        guard FileIO.exists(executable) else {
            print("tier-drift: \(executable) is missing (swift build -c release --product launchprof): skipped")
            return
        }
        guard invocations >= 3, runs >= 3 else {
            print("tier-drift: needs at least 3 invocations of at least 3 runs")
            return
        }
        let gate = GateBenchmark(mode: .timeTier, noChangeTrials: 0, changeTrials: 0)
        let manifest: String
        do { manifest = try gate.manifest(fraction: 0) } catch {
            print("tier-drift: no manifest: \(error)")
            return
        }
        defer { unlink(manifest) }
        let home = GateBenchmark.cacheHome
        defer { FileIO.removeTree(home) }
        _ = system("XDG_CACHE_HOME=\(home) \(executable) tiers --calibrate > /dev/null 2>&1")
        let load = GateBenchmark.loadAverage().map(format) ?? "?"
        print(
            "tier-drift: \(invocations) invocations of `run --tier \(GateBenchmark.Mode.tier) --runs \(runs)` on one calibration, one after another; load average \(load) on \(HostInfo.current().cores) cores at the start"
        )
        let start = MonotonicClock.nanoseconds()
        var all: [Invocation] = []
        for index in 0..<invocations {
            guard let invocation = invoke(manifest: manifest, home: home, index: index) else { return }
            all.append(invocation)
        }
        let minutes = LaunchClock.seconds(MonotonicClock.nanoseconds() - start) / 60
        print("tier-drift: \(format(minutes)) minutes; load average \(GateBenchmark.loadAverage().map(format) ?? "?") at the end")
        describe("Total launch time", all.map(\.totals))
        describe("drawing", all.map(\.drawings))
        let clocks = all.compactMap(\.clock)
        if clocks.count == all.count, let low = clocks.min(), let high = clocks.max() {
            let medians = all.map { log(Self.median($0.totals)) }
            print(
                "tier-drift: the core's clock around the invocations \(format(low))–\(format(high)) GHz; r of the totals' log medians on its log \(format(Self.correlation(medians, clocks.map { log($0) })))"
            )
        }
    }

    /// Runs one invocation and reads its result, or prints why it could not and returns `nil`.
    func invoke(manifest: String, home: String, index: Int) -> Invocation? {
        let output = "\(FileIO.temporaryDirectory)/launchprof-tier-drift-\(getpid())-\(index).json"
        defer { unlink(output) }
        let before = HostClock.gigahertz(tries: 20)
        let status = system(
            "XDG_CACHE_HOME=\(home) \(executable) run --quiet --manifest \(manifest) --tier \(GateBenchmark.Mode.tier) --runs \(runs) --output \(output) > /dev/null 2>&1"
        )
        let after = HostClock.gigahertz(tries: 20)
        guard status == 0, let data = FileManager.default.contents(atPath: output),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let records = json["runs"] as? [[String: Any]]
        else {
            print("tier-drift: invocation \(index + 1) failed (exit \((status >> 8) & 0xff)): stopped")
            return nil
        }
        var invocation = Invocation(totals: [], drawings: [], clock: nil)
        for record in records {
            guard let total = record["total"] as? Double else { continue }
            let phases = record["phases"] as? [[String: Any]] ?? []
            guard let drawing = phases.first(where: { $0["name"] as? String == "drawing" })?["duration"] as? Double else { continue }
            invocation.totals.append(total)
            invocation.drawings.append(drawing)
        }
        guard invocation.totals.count >= 3 else {
            print("tier-drift: invocation \(index + 1) holds \(invocation.totals.count) usable runs: stopped")
            return nil
        }
        if let before, let after { invocation.clock = (before + after) / 2 }
        return invocation
    }

    /// One row's split: the medians' spread between invocations, their own sampling error, and what
    /// a 5% threshold makes of the difference of two invocations.
    func describe(_ row: String, _ invocations: [[Double]]) {
        let medians = invocations.map { log(Self.median($0)) }
        let between = Self.standardDeviation(medians)
        let within = (invocations.map { pow(Self.bootstrapSpread($0), 2) }.reduce(0, +) / Double(invocations.count)).squareRoot()
        let host = max(0, between * between - within * within).squareRoot()
        var over = 0, pairs = 0
        for i in medians.indices {
            for j in medians.indices where j != i {
                pairs += 1
                if medians[j] - medians[i] > log(1 + Self.threshold) { over += 1 }
            }
        }
        // Two invocations' difference: sd √2 × between, taken as normal.
        let spread = 2.squareRoot() * between
        let falseAlarm = spread > 0 ? Self.normalTail(log(1 + Self.threshold) / spread) : 0
        let detected = spread > 0 ? 1 - Self.normalTail((log(1 + Self.slowdown) - log(1 + Self.threshold)) / spread) : 1
        print(
            "tier-drift: \(row): the \(runs)-run medians moved by sd \(percent(between)) between invocations (max/min \(format(exp(medians.max()! - medians.min()!))))"
        )
        print(
            "tier-drift:   a median's own sampling error \(percent(within)) (bootstrap within each), so the host adds \(percent(host)) between invocations; lag-1 autocorrelation of the medians \(format(Self.autocorrelation(medians)))"
        )
        print(
            "tier-drift:   two unchanged invocations differ by over \(Int(Self.threshold * 100))%: \(over) of \(pairs) ordered pairs (\(percent(Double(over) / Double(pairs)))), \(percent(falseAlarm)) by the spread; so 0 of 20 such trials: \(percent(pow(1 - falseAlarm, 20))); a \(Int(Self.slowdown * 100))% slowdown seen over \(Int(Self.threshold * 100))%: \(percent(detected))"
        )
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func standardDeviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
    }

    /// The standard deviation of the log median over 1,000 resamples of `values` (a fixed seed, so a
    /// reading repeats from the same runs).
    static func bootstrapSpread(_ values: [Double]) -> Double {
        var generator = SplitMix64(seed: 27)
        let medians = (0..<1000).map { _ in log(median(values.map { _ in values[Int(generator.next() % UInt64(values.count))] })) }
        return standardDeviation(medians)
    }

    static func correlation(_ x: [Double], _ y: [Double]) -> Double {
        let mx = x.reduce(0, +) / Double(x.count), my = y.reduce(0, +) / Double(y.count)
        let sxy = zip(x, y).map { ($0 - mx) * ($1 - my) }.reduce(0, +)
        let sxx = x.map { ($0 - mx) * ($0 - mx) }.reduce(0, +), syy = y.map { ($0 - my) * ($0 - my) }.reduce(0, +)
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }

    /// How much an invocation's median follows the one before it (slow host drift makes it positive).
    static func autocorrelation(_ values: [Double]) -> Double {
        correlation(Array(values.dropLast()), Array(values.dropFirst()))
    }

    /// P(Z > z) for a standard normal Z.
    static func normalTail(_ z: Double) -> Double { erfc(z / 2.squareRoot()) / 2 }

    func percent(_ fraction: Double) -> String { "\(format(fraction * 100))%" }
}

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import LaunchCore
import LaunchTiers

/// `make bench-gate`: the detection power of `launchprof check`, measured on this machine, trial by
/// trial through the real command (`check --baseline-manifest A --manifest B --format json`).
///
/// The launch is the default fixture without its snapshot. The candidate is unchanged, or its
/// drawing repeats a fraction more of its own work (`test.slowdown`: time and instructions both
/// grow by about that fraction). Both manifests carry the slowdown key (0 for the baseline), so they
/// differ in that number only. Three gates are measured:
/// - **instructions**: `--metric instructions` (two baseline runs, one candidate run, Callgrind);
///   two trials run at once, since counts do not depend on load;
/// - **time, --runs auto**: interleaved pairs until the sequential rule decides (budget 200 runs a
///   side, 120 s);
/// - **time, 10 runs**: `--runs 10`, interleaved and compared in pairs;
/// - **time on a tier, separate invocations** (issue 27): `run --tier iphone-3gs --output A`, then
///   `check --tier iphone-3gs --baseline A` on the candidate (the default runs: 20 a side on a tier), as a team records a
///   baseline on a tier and checks pull requests against it (check's default thresholds; the same
///   cached calibration on both sides, in a temporary `$XDG_CACHE_HOME` calibrated once). Its change
///   is of the drawing's CPU time (`"of": "cpuTime"`), which is what a tier stretches: 10% more rows
///   add only 5–6% CPU time. Each trial records the load and the core's clock (``HostClock``) around
///   each side, and the CPU time the candidate's app says it added, so a cell says how large its
///   change really was and what moved between the sides of its false alarms.
struct GateBenchmark: Sendable {
    enum Mode: String, CaseIterable, Sendable {
        case instructions
        case timeAuto = "time-auto"
        case timeFixed = "time-10"
        case timeTier = "time-tier"

        var arguments: [String] {
            switch self {
            case .instructions: ["--metric", "instructions"]
            // A threshold below the smallest change measured (5%) and a minimum change far below 5% of the
            // drawing (now about 8 ms): with check's defaults (5% and 2 ms) a 5% slower drawing is by
            // definition not a regression, and no gate could "detect" it.
            case .timeAuto: ["--runs", "auto"] + Self.timeThreshold
            case .timeFixed: ["--runs", "10"] + Self.timeThreshold
            // The defaults, as a team would write them: 20 runs a side on a tier, rows judged together.
            case .timeTier: ["--tier", Self.tier]
            }
        }

        static let timeThreshold = ["--threshold", "2.5", "--min-change", "0.0001"]
        static let tier = "iphone-3gs"

        var label: String {
            switch self {
            case .instructions: "instructions (2 baseline runs + 1 candidate run under Callgrind, threshold 1%)"
            case .timeAuto: "time, --runs auto (sequential, at most 200 runs a side or 120 s, threshold 2.5% and 0.1 ms)"
            case .timeFixed: "time, --runs 10 (interleaved, paired, threshold 2.5% and 0.1 ms)"
            case .timeTier:
                "time on \(Self.tier), the default runs (20 a side), baseline and candidate in separate invocations (record, later check --baseline; thresholds 5% and 2 ms; the rows judged together, Holm)"
            }
        }
    }

    var mode: Mode
    var noChangeTrials: Int
    var changeTrials: Int
    /// The change cells, in percent more drawing work.
    var changePercents: [Double] = [1, 2, 5, 10]
    /// The launchprof measured: `LAUNCHPROF` in the environment, or the release build.
    let executable = benchedLaunchprof

    /// What the change cells' fraction is of: CPU time on a tier (what it stretches), rows elsewhere
    /// (the instruction gate's: instructions grow by the fraction).
    var slowdownMeasure: String { mode == .timeTier ? "cpuTime" : "rows" }

    func manifest(fraction: Double) throws -> String {
        let root = FileIO.parentDirectory(of: FileIO.parentDirectory(of: FileIO.parentDirectory(of: #filePath)))
        let fixture = root + "/Fixtures/default"
        let json = """
            {"name": "default", "theme": "\(fixture)/theme.xml", "assets": "\(fixture)/assets",
             "screen": {"width": 320, "height": 480, "scale": 1},
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}, {"name": "loading images", "run": "images"},
                        {"name": "drawing", "run": "draw"}],
             "test": {"slowdown": {"stage": "drawing", "fraction": \(String(format: "%.3f", fraction)), "of": "\(slowdownMeasure)"}}}
            """
        let path = "/tmp/launchprof-gate-\(getpid())-\(fraction).json"
        try FileIO.writeAtomically(json, to: path)
        return path
    }

    struct Trial: Sendable {
        var exit: Int32
        var regressions: [String]
        var drawingChange: Double?
        /// Runs a side the check made (`--runs auto`).
        var runs: Int?
        var seconds: Double
        /// What launchprof said when it exited with neither 0 nor 1 (its first `error:` line).
        var error: String? = nil
        /// Tier trials: the CPU time the candidate's drawing added, over its work's (its runs' counters).
        var addedShare: Double? = nil
        /// Tier trials: the core's clock during the candidate over during the baseline, less 1 (each
        /// side's the mean of a probe before and after it).
        var clockChange: Double? = nil
        /// Tier trials: the highest 1-minute load average seen around the sides.
        var load: Double? = nil
    }

    /// The temporary `$XDG_CACHE_HOME` of the tier trials (one calibration for all of them).
    static let cacheHome = "/tmp/launchprof-gate-cache-\(getpid())"

    /// The 1-minute load average (`/proc/loadavg`), or `nil`.
    static func loadAverage() -> Double? {
        (try? FileIO.readText("/proc/loadavg", limit: 4096))?.split(separator: " ").first.flatMap { Double($0) }
    }

    /// Runs one check and reads its JSON report.
    func trial(base: String, candidate: String) -> Trial {
        let out = "/tmp/launchprof-gate-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(out) }
        let errors = out + ".err"
        defer { unlink(errors) }
        let command =
            ([executable, "check", "--quiet", "--baseline-manifest", base, "--manifest", candidate, "--format", "json"]
            + mode.arguments).joined(separator: " ") + " > \(out) 2>\(errors)"
        if mode == .timeTier { return tierTrial(base: base, candidate: candidate, out: out, errors: errors) }
        let start = MonotonicClock.nanoseconds()
        let status = system(command)
        return read(out: out, errors: errors, status: status, seconds: LaunchClock.seconds(MonotonicClock.nanoseconds() - start))
    }

    /// A check's verdict from its exit status and JSON report (`out`), and its first error line.
    func read(out: String, errors: String, status: Int32, seconds: Double) -> Trial {
        let exit = (status >> 8) & 0xff
        let said =
            exit == 0 || exit == 1
            ? nil
            : (try? FileIO.readText(errors, limit: 65536))?.split(separator: "\n").first { $0.contains("error:") }.map(String.init)
        guard let data = FileManager.default.contents(atPath: out),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            return Trial(exit: exit, regressions: [], drawingChange: nil, runs: nil, seconds: seconds, error: said)
        }
        let rows = json["rows"] as? [[String: Any]] ?? []
        let drawing = rows.first { $0["path"] as? String == "drawing" }
        let total = json["total"] as? [String: Any]
        return Trial(
            exit: exit, regressions: json["regressions"] as? [String] ?? [],
            drawingChange: drawing?["changePercent"] as? Double,
            runs: (total?["sequentialRuns"] as? Int) ?? (drawing?["sequentialRuns"] as? Int), seconds: seconds, error: said)
    }

    /// A tier trial: the baseline recorded in an invocation of its own, the candidate profiled and
    /// checked later by another, with the clock and the load read around each.
    func tierTrial(base: String, candidate: String, out: String, errors: String) -> Trial {
        let baseline = out + ".baseline.json", result = out + ".candidate.json"
        defer { unlink(baseline) }
        defer { unlink(result) }
        let environment = "XDG_CACHE_HOME=\(Self.cacheHome)"
        let options = mode.arguments.joined(separator: " ")
        var loads = [Self.loadAverage()]
        let start = MonotonicClock.nanoseconds()
        let clockBefore = HostClock.gigahertz(tries: 20)
        var status = system("\(environment) \(executable) run --quiet --manifest \(base) --output \(baseline) \(options) > /dev/null 2>\(errors)")
        let clockBetween = HostClock.gigahertz(tries: 20)
        loads.append(Self.loadAverage())
        if status == 0 {
            status = system(
                "\(environment) \(executable) check --quiet --manifest \(candidate) --baseline \(baseline) --output \(result) --format json \(options) > \(out) 2>>\(errors)"
            )
        }
        let clockAfter = HostClock.gigahertz(tries: 20)
        loads.append(Self.loadAverage())
        var trial = read(out: out, errors: errors, status: status, seconds: LaunchClock.seconds(MonotonicClock.nanoseconds() - start))
        trial.addedShare = Self.addedShare(resultFile: result)
        if let a = clockBefore, let b = clockBetween, let c = clockAfter { trial.clockChange = (b + c) / (a + b) - 1 }
        trial.load = loads.compactMap { $0 }.max()
        return trial
    }

    /// The CPU time the slowdown added over its work's, summed over a result's runs (`test slowdown
    /// added nanoseconds` / `test slowdown work nanoseconds`, the app's counters), or `nil`.
    static func addedShare(resultFile: String) -> Double? {
        guard let data = FileManager.default.contents(atPath: resultFile),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let runs = json["runs"] as? [[String: Any]]
        else { return nil }
        var work = 0.0, added = 0.0
        for run in runs {
            for counter in run["counters"] as? [[String: Any]] ?? [] {
                let value = (counter["value"] as? NSNumber)?.doubleValue ?? 0
                switch counter["name"] as? String {
                case "test slowdown work nanoseconds": work += value
                case "test slowdown added nanoseconds": added += value
                default: break
                }
            }
        }
        return work > 0 ? added / work : nil
    }

    func run() throws {
        guard FileIO.exists(executable) else {
            print("build first: swift build -c release --product launchprof")
            return
        }
        let base = try manifest(fraction: 0)
        defer { unlink(base) }
        if mode == .timeTier {
            // One calibration for every trial (and for nothing else: the user's cache is untouched).
            _ = system("XDG_CACHE_HOME=\(Self.cacheHome) \(executable) tiers --calibrate > /dev/null 2>&1")
        }
        defer { if mode == .timeTier { FileIO.removeTree(Self.cacheHome) } }
        let cells: [(String, Double)] =
            [("no change", 0)]
            + changePercents.map {
                ("\($0 == $0.rounded() ? String(Int($0)) : format($0))% more drawing \(mode == .timeTier ? "CPU time" : "work")", $0 / 100)
            }
        let tag = "gate (\(mode.rawValue))"
        print("\(tag): \(mode.label); default fixture without snapshot; host \(HostInfo.current().cpuModel), \(HostInfo.current().cores) cores")
        let workers = mode == .instructions ? 2 : 1
        for (label, fraction) in cells {
            let trials = fraction == 0 ? noChangeTrials : changeTrials
            guard trials > 0 else { continue }
            let candidate = try manifest(fraction: fraction)
            defer { if candidate != base { unlink(candidate) } }
            let results = UnsafeMutableBufferPointer<Trial>.allocate(capacity: trials)
            defer { results.deallocate() }
            // Each worker writes only its own slots.
            nonisolated(unsafe) let slots = results
            let loadBefore = Self.loadAverage()
            let start = MonotonicClock.nanoseconds()
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for i in stride(from: worker, to: trials, by: workers) {
                    (slots.baseAddress! + i).initialize(to: trial(base: base, candidate: candidate))
                }
            }
            let seconds = LaunchClock.seconds(MonotonicClock.nanoseconds() - start)
            let all = Array(results)
            let failed = all.filter { $0.exit == 1 }.count
            let named = all.filter { $0.regressions.contains("drawing") }.count
            let errors = all.filter { $0.exit != 0 && $0.exit != 1 }.count
            let changes = all.compactMap(\.drawingChange).sorted()
            let median = changes.isEmpty ? "-" : "\(format(changes[changes.count / 2]))%"
            var line =
                "\(tag): \(label): \(fraction == 0 ? "wrongly failed" : "detected") \(failed)/\(trials) = \(format(Double(failed) / Double(trials) * 100))%"
            line += " (drawing named in \(named); errors \(errors); drawing's median change \(median)"
            let runs = all.compactMap(\.runs).sorted()
            if !runs.isEmpty { line += "; runs a side \(runs[0])…\(runs[runs.count - 1]), median \(runs[runs.count / 2])" }
            // What failed the trials (a false alarm names the phase the noise moved).
            var flagged: [String: Int] = [:]
            for trial in all where trial.exit == 1 { for name in trial.regressions { flagged[name, default: 0] += 1 } }
            if !flagged.isEmpty {
                line += "; flagged: " + flagged.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            }
            let perTrial = all.map(\.seconds).sorted()
            line += "; \(format(perTrial[perTrial.count / 2])) s per check) [\(Int(seconds)) s]"
            if let first = all.compactMap(\.error).first { line += "\n\(tag):   first error: \(first)" }
            if mode == .timeTier { line += tierLines(all, tag: tag) }
            if mode != .instructions, let loads = [loadBefore, Self.loadAverage()].compactMap({ $0 }).max() {
                let cores = HostInfo.current().cores
                line += "\n\(tag):   load average up to \(format(loads)) on \(cores) cores"
                // Time on a busy machine moves with the load between and within the sides: say so beside the verdict.
                if loads > Double(cores) {
                    line += ": busy, so this cell's false alarms and misses are the load's as much as check's (re-measure on a quiet machine)"
                }
            }
            print(line)
            fflush(nil)
        }
    }

    /// A tier cell's size and what moved between its sides: the CPU time added (the app's counters),
    /// the core's clock between the sides (all trials, and the failed ones), the load at the failures.
    func tierLines(_ all: [Trial], tag: String) -> String {
        var lines = ""
        let shares = all.compactMap(\.addedShare).sorted()
        if !shares.isEmpty {
            lines += "\n\(tag):   CPU time the app added to the drawing's work: median \(format(shares[shares.count / 2] * 100))%"
            lines += " (\(format(shares[0] * 100))–\(format(shares[shares.count - 1] * 100))%)"
        }
        let clocks = all.compactMap(\.clockChange).map { abs($0) * 100 }.sorted()
        if !clocks.isEmpty {
            lines +=
                "\n\(tag):   the core's clock between the sides moved by median \(format(clocks[clocks.count / 2]))%, at most \(format(clocks[clocks.count - 1]))%"
            let failed = all.filter { $0.exit == 1 }
            if !failed.isEmpty {
                let moved = failed.map { $0.clockChange.map { String(format: "%+.1f%%", $0 * 100) } ?? "-" }
                let loads = failed.map { $0.load.map { format($0) } ?? "-" }
                lines += "; in the failed trials \(moved.joined(separator: ", ")) (load \(loads.joined(separator: ", ")))"
            }
        }
        return lines
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import LaunchCore

/// `make bench-gate`'s function cell (issue 29) and the cost of `--functions` (`make bench`).
///
/// The launch is the default fixture without its snapshot. The candidate adds work to one drawing
/// function's own code (`test.slowFunction`: `Canvas.fillRoundedRect`), sized so that `drawing` grows
/// by about 2% (calibrated first: one run without and one with a known amount of work). Each trial is
/// `check --metric instructions --functions --format json`: it passes when `drawing` is a regression
/// and its first function is `fillRoundedRect`.
struct FunctionGateBenchmark: Sendable {
    var trials: Int
    /// The growth of `drawing` aimed at, in percent.
    var percent = 2.0
    /// The function the work is added to, and how the report names it.
    static let function = "fillRoundedRect"
    let executable = benchedLaunchprof

    /// A manifest whose drawing calls `fillRoundedRect` with `iterations` more steps of work each time:
    /// the instruction gate's manifest (its slowdown at 0), with `test.slowFunction` added.
    static func manifest(iterations: Int) throws -> String {
        let gate = try GateBenchmark(mode: .instructions, noChangeTrials: 0, changeTrials: 0).manifest(fraction: 0)
        defer { unlink(gate) }
        let text = try String(contentsOfFile: gate, encoding: .utf8).replacingOccurrences(
            of: #""test": {"#, with: #""test": {"slowFunction": {"function": "\#(function)", "iterations": \#(iterations)}, "#)
        let path = "/tmp/launchprof-function-gate-\(getpid())-\(iterations).json"
        try FileIO.writeAtomically(text, to: path)
        return path
    }

    /// Runs `command` through the shell; its exit status and seconds.
    static func shell(_ command: String) -> (Int32, Double) {
        let start = MonotonicClock.nanoseconds()
        let status = system(command)
        return ((status >> 8) & 0xff, LaunchClock.seconds(MonotonicClock.nanoseconds() - start))
    }

    /// `check`'s JSON report of `base` against `candidate`, or `nil`.
    func check(base: String, candidate: String, functions: Bool) -> (exit: Int32, json: [String: Any]?) {
        let out = "/tmp/launchprof-function-gate-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(out) }
        let (exit, _) = Self.shell(
            "\(executable) check --quiet --baseline-manifest \(base) --manifest \(candidate) --metric instructions \(functions ? "--functions" : "") --format json > \(out) 2>/dev/null"
        )
        guard let data = FileManager.default.contents(atPath: out) else { return (exit, nil) }
        return (exit, try? JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func drawing(_ json: [String: Any]?) -> [String: Any]? {
        (json?["rows"] as? [[String: Any]])?.first { $0["path"] as? String == "drawing" }
    }

    /// The iterations per call that make `drawing` about `percent` larger: from the change a known
    /// amount makes.
    func calibrate(base: String) throws -> Int? {
        let probe = 10_000
        let manifest = try Self.manifest(iterations: probe)
        defer { unlink(manifest) }
        let row = Self.drawing(check(base: base, candidate: manifest, functions: false).json)
        guard let change = row?["change"] as? Double, let baseline = row?["baselineMedian"] as? Double, change > 0 else { return nil }
        return Int((Double(probe) * baseline * percent / 100 / change).rounded())
    }

    func run() throws {
        guard FileIO.exists(executable) else {
            print("build first: swift build -c release --product launchprof")
            return
        }
        let tag = "gate (functions)"
        let base = try Self.manifest(iterations: 0)
        defer { unlink(base) }
        guard let iterations = try calibrate(base: base) else {
            print("\(tag): calibration failed (no drawing change from the probe)")
            return
        }
        let candidate = try Self.manifest(iterations: iterations)
        defer { unlink(candidate) }
        print(
            "\(tag): check --metric instructions --functions, \(Self.function) given \(iterations) more steps a call (about \(format(percent))% more drawing)")
        let results = UnsafeMutableBufferPointer<(Bool, Bool, Double?, String)>.allocate(capacity: trials)
        defer { results.deallocate() }
        nonisolated(unsafe) let slots = results
        let start = MonotonicClock.nanoseconds()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for i in stride(from: worker, to: trials, by: 2) {
                let (exit, json) = check(base: base, candidate: candidate, functions: true)
                let first = ((json?["functions"] as? [String: Any])?["drawing"] as? [[String: Any]])?.first?["name"] as? String ?? "-"
                (slots.baseAddress! + i).initialize(
                    to: (exit == 1, first.contains(Self.function), Self.drawing(json)?["changePercent"] as? Double, first))
            }
        }
        let all = Array(results)
        let named = all.filter { $0.0 && $0.1 }.count
        let changes = all.compactMap(\.2).sorted()
        let others = Set(all.filter { !$0.1 }.map(\.3)).sorted().prefix(3)
        var line = "\(tag): \(Self.function) named first under drawing in \(named)/\(trials) (regression found in \(all.filter(\.0).count)"
        line += "; drawing's median change \(changes.isEmpty ? "-" : format(changes[changes.count / 2]) + "%")"
        if !others.isEmpty { line += "; named instead: \(others.joined(separator: ", "))" }
        print(line + ") [\(Int(LaunchClock.seconds(MonotonicClock.nanoseconds() - start))) s]")
    }
}

/// The cost of `--functions`: `run --metric instructions --runs 1` with and without it, alternated,
/// `pairs` times; the ratio of the median wall times (goal ≤ 1.3).
struct FunctionCostBenchmark: Sendable {
    var pairs = 5
    let executable = benchedLaunchprof

    func run() throws {
        guard FileIO.exists(executable) else { return print("build first: swift build -c release --product launchprof") }
        let manifest = try FunctionGateBenchmark.manifest(iterations: 0)
        defer { unlink(manifest) }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "-"
        var plain: [Double] = [], profiled: [Double] = []
        for i in 0..<pairs {
            for functions in i % 2 == 0 ? [false, true] : [true, false] {
                let (_, seconds) = FunctionGateBenchmark.shell(
                    "\(executable) run --quiet --metric instructions --runs 1 --manifest \(manifest) \(functions ? "--functions" : "") > /dev/null 2>&1")
                if functions { profiled.append(seconds) } else { plain.append(seconds) }
            }
        }
        plain.sort()
        profiled.sort()
        let a = plain[plain.count / 2], b = profiled[profiled.count / 2]
        print(
            "functions: run --metric instructions --runs 1: \(format(a)) s alone, \(format(b)) s with --functions (\(format(b / a))x; goal ≤ 1.3x; \(pairs) alternated pairs; load \(load))"
        )
    }
}

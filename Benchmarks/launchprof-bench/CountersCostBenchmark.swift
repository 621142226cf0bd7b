import Foundation
import LaunchCore

/// The cost of the system counters (docs/counters.md; issue 29: at most 1% of the launch).
///
/// Two figures, both ratios of this run's own measurements:
/// - in process: a phase's `begin` + `end` with counters and without, alternated sample by sample
///   (as `recorder` is), and the extra per phase × the default launch's phases over its total;
/// - end to end: `launchprof run --runs RUNS --format json` with the built-in app's counters on and
///   off (`LAUNCHPROF_COUNTERS=0`), alternated `rounds` times; the median launch total of each side.
/// The load average is printed with them: on a busy machine the end-to-end figure is noise-bound.
struct CountersCostBenchmark {
    var rounds = 20
    var runs = 5
    let executable = benchedLaunchprof

    func run() {
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "-"
        let perPhase = Self.extraPerPhase()
        print(
            "counters: a phase's begin + end: \(format(perPhase.plain)) ns plain, \(format(perPhase.counted)) ns with counters (+\(format(perPhase.counted - perPhase.plain)) ns)"
        )
        guard FileIO.exists(executable) else { return print("counters: end to end skipped: build first (swift build -c release --product launchprof)") }
        var on: [Double] = [], off: [Double] = [], phases = 0
        for round in 0..<rounds {
            for counted in round % 2 == 0 ? [true, false] : [false, true] {
                guard let (totals, count) = launch(counted: counted) else { return print("counters: launchprof run failed") }
                if counted { on += totals; phases = count } else { off += totals }
            }
        }
        let a = Self.median(off), b = Self.median(on)
        let estimate = Double(phases) * (perPhase.counted - perPhase.plain) / 1e9 / a
        print(
            "counters: \(phases) phases per launch × +\(format(perPhase.counted - perPhase.plain)) ns = \(format(estimate * 100))% of the \(format(a * 1000)) ms launch (goal ≤ 1%: \(estimate <= 0.01 ? "met" : "missed"))"
        )
        print(
            "counters: end to end, launch total \(format(a * 1000)) ms off, \(format(b * 1000)) ms on (\(format((b / a - 1) * 100))%; \(rounds) alternated rounds of \(runs) runs; load \(load))"
        )
    }

    /// The launch totals of one `run` and the phases of its first run (the counters on or off).
    func launch(counted: Bool) -> ([Double], Int)? {
        let out = "/tmp/launchprof-counters-bench-\(getpid()).json"
        defer { unlink(out) }
        let (status, _) = FunctionGateBenchmark.shell(
            "\(counted ? "" : "\(AppInterface.countersVariable)=0 ")\(executable) run --quiet --runs \(runs) --format json > \(out) 2>/dev/null")
        guard status == 0, let data = FileManager.default.contents(atPath: out),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let runs = json["runs"] as? [[String: Any]]
        else { return nil }
        let totals = runs.compactMap { $0["total"] as? Double }
        let phases = (runs.first?["phases"] as? [[String: Any]])?.filter { !(($0["afterLaunch"] as? Bool) ?? false) }.count ?? 0
        return (totals, phases)
    }

    /// Median nanoseconds of a phase's begin + end without and with counters, alternated.
    static func extraPerPhase() -> (plain: Double, counted: Double) {
        let batch = 100
        let plain = PhaseRecorder(clock: .startNow(), capacity: batch), counted = PhaseRecorder(clock: .startNow(), capacity: batch)
        counted.recordsCounters = true
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<201 {
            a.append(measure(samples: 1, operations: batch) { for _ in 0..<batch { plain.end(plain.begin("p")) } })
            plain.reset()
            b.append(measure(samples: 1, operations: batch) { for _ in 0..<batch { counted.end(counted.begin("p")) } })
            counted.reset()
        }
        return (median(a), median(b))
    }

    static func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }
}

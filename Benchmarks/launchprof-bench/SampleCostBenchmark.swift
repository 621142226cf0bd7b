#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchRunner
import LaunchSampling
import LaunchStats

/// The cost of `--sample` at its default rate: `run --runs N` with and without it, alternated,
/// `pairs` times; the ratio of the median launch totals over all runs of each side (goal ≤ 1.05:
/// perf starts once per session, before the first launch, so what remains is the sampling itself).
/// The whole command's wall time (perf's start, `perf script`) is printed beside it.
struct SampleCostBenchmark {
    var pairs = 5
    var runsPerSide = 5
    let executable = benchedLaunchprof

    func run() throws {
        guard FileIO.exists(executable) else { return print("build first: swift build -c release --product launchprof") }
        guard ExecutableSearch.find("perf") != nil else { return print("sample: skipped: perf is not installed (make setup installs linux-perf)") }
        let load = (try? FileIO.readText("/proc/loadavg", limit: 256))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "-"
        let output = "/tmp/launchprof-sample-cost-\(getpid()).json", snapshot = "/tmp/launchprof-sample-cost-\(getpid()).png"
        defer { unlink(output); unlink(snapshot) }
        var totals: [Bool: [Double]] = [false: [], true: []], walls: [Bool: [Double]] = [false: [], true: []]
        for i in 0..<pairs {
            for sampled in i % 2 == 0 ? [false, true] : [true, false] {
                let (status, seconds) = FunctionGateBenchmark.shell(
                    "\(executable) run --quiet --runs \(runsPerSide) --snapshot \(snapshot) --output \(output) \(sampled ? "--sample" : "") > /dev/null 2>&1")
                guard status == 0 else { return print("sample: FAILED: run\(sampled ? " --sample" : "") exited with status \(status)") }
                let result = try ResultFile.read(output)
                if sampled, result.samples == nil { return print("sample: FAILED: run --sample wrote no samples") }
                totals[sampled]! += result.runs.map(\.total)
                walls[sampled]!.append(seconds)
            }
        }
        func median(_ values: [Double]) -> Double { Summary(values)?.median ?? .nan }
        let plain = median(totals[false]!), sampled = median(totals[true]!)
        let ratio = sampled / plain
        print(
            "sample: launch total \(format(plain * 1000)) ms alone, \(format(sampled * 1000)) ms with --sample at \(SamplingSetup.defaultRate) Hz (\(format(ratio))x; goal ≤ 1.05x; "
                + "\(pairs) alternated pairs of \(runsPerSide) runs; load \(load)); whole command \(format(median(walls[false]!))) s vs \(format(median(walls[true]!))) s"
        )
    }
}

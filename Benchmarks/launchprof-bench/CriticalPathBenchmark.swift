import LaunchCore
import LaunchExport

/// `report --critical-path` and the SVG timeline's critical path on runs of 10,000 and 100,000
/// top-level phases (issue 12: the old search was O(n³), over 20 s for 10,000). Half the phases run
/// on a second thread and overlap, so the search has phases to skip; it prints the time of each.
struct CriticalPathBenchmark {
    func report() {
        for count in [10_000, 100_000] {
            var phases: [PhaseRecord] = []
            phases.reserveCapacity(count)
            for i in 0..<count {
                let start = Double(i / 2) * 0.001
                phases.append(
                    PhaseRecord(
                        name: "phase \(i)", start: start + (i % 2 == 0 ? 0 : 0.0002),
                        duration: i % 2 == 0 ? 0.001 : 0.0005, thread: i % 2))
            }
            let run = RunRecord(index: 1, total: Double(count / 2) * 0.001, phases: phases)
            let result = LaunchResult(
                date: "", manifest: ManifestInfo(name: "bench", path: "bench", sha256: ""),
                host: HostInfo(cpuModel: "", cores: 1, os: "", architecture: "", swiftVersion: "", hostname: ""),
                runs: [run])
            let start = MonotonicClock.nanoseconds()
            let text = (try? CriticalPathReport().render(result)) ?? ""
            let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
            let lines = text.split(separator: "\n").count - 1
            print("critical path: \(count) phases  \(format(seconds * 1000)) ms  (\(lines) phases on the path; was O(n³), over 20 s at 10,000)")
        }
    }
}

import LaunchCore
import LaunchExport
import LaunchStats

/// Every export of a result, and of a comparison of two, at 10⁵ phases: once all on one thread
/// (nested in groups of ten) and once each on a thread of its own (issue 28: the SVG export walked
/// every phase once per thread, 44 s at 100,000 threads). Also at a tenth of the size, so the
/// growth from 10⁴ to 10⁵ shows (about 10× when linear, 100× when quadratic).
struct ExportScaleBenchmark {
    var sizes = [10_000, 100_000]

    func report() {
        for size in sizes {
            for layout in ["phases", "threads"] {
                let result = Self.result(phases: size, oneThreadEach: layout == "threads")
                for format in OutputFormat.allCases {
                    let seconds = time { _ = try? format.resultExporter(precision: 3).render(result) }
                    print("export \(format.rawValue): \(size) \(layout)  \(Self.milliseconds(seconds)) ms")
                }
                let comparison = Self.comparison(of: result)
                let context = ComparisonContext()
                for format in OutputFormat.Subject.comparison.formats {
                    guard let exporter = format.comparisonExporter else { continue }
                    let seconds = time { _ = try? exporter.render(comparison, context: context) }
                    print("export comparison \(format.rawValue): \(size) \(layout)  \(Self.milliseconds(seconds)) ms")
                }
                let junit = time { _ = JUnitReport().render(comparison, context: context) }
                print("export comparison junit: \(size) \(layout)  \(Self.milliseconds(junit)) ms")
            }
        }
    }

    /// The comparison of a small result with itself, given a row per phase of `result` (the
    /// statistics of 10⁵ rows are the diff benchmark's; this one times the exports alone).
    static func comparison(of result: LaunchResult) -> Comparison {
        var small = result
        small.runs[0].phases = Array(result.runs[0].phases.prefix(1))
        var comparison = Comparison(baseline: small, candidate: small)
        let template = comparison.rows[0]
        comparison.rows = PhaseTable(result).rows.enumerated().map { i, row in
            var copy = template
            copy.path = row.path
            copy.name = row.name
            copy.depth = row.depth
            copy.verdict = [.slower, .faster, .withinNoise, .inconclusive][i % 4]
            return copy
        }
        return comparison
    }

    private func time(_ body: () -> Void) -> Double {
        let start = MonotonicClock.nanoseconds()
        body()
        return Double(MonotonicClock.nanoseconds() - start) / 1e9
    }

    private static func milliseconds(_ seconds: Double) -> String { format(seconds * 1000) }

    /// A result of one run with `phases` phases: on one thread, nested ten deep in groups, or one per thread.
    static func result(phases count: Int, oneThreadEach: Bool) -> LaunchResult {
        var phases: [PhaseRecord] = []
        phases.reserveCapacity(count)
        for i in 0..<count {
            let depth = oneThreadEach ? 0 : i % 10
            phases.append(
                PhaseRecord(
                    name: "phase \(i)", kind: .cpu, start: Double(i) * 1e-6, duration: 1e-6 * Double(10 - depth),
                    thread: oneThreadEach ? i : 0, depth: depth, parent: depth == 0 ? nil : i - 1))
        }
        let run = RunRecord(index: 1, total: Double(count) * 1e-6 + 1e-5, phases: phases)
        return LaunchResult(
            date: "", manifest: ManifestInfo(name: "bench", path: "bench", sha256: ""),
            host: HostInfo(cpuModel: "", cores: 1, os: "", architecture: "", swiftVersion: "", hostname: ""),
            runs: [run])
    }
}

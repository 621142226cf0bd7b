import LaunchCore
import LaunchExport
import LaunchStats
#if canImport(Glibc)
import Glibc
#endif

extension LaunchSpread {
    /// `doctor --tier NAME`'s finding, `tier-spread`, from runs of the default launch on that tier: how
    /// much a tier's `runs`-run median moves on its own here (the spread of the log median of `runs`
    /// runs drawn from these, 1,000 times with a fixed seed: a tier's runs are often bimodal, which a
    /// spread from the median absolute deviation would hide), and the smallest slowdown a check
    /// against a stored baseline (separate invocations, `runs` a side) can see with about 80% power:
    /// the threshold plus (z₁₋α/₂ + z₀.₈) × √2 × that spread. Before the host's drift between
    /// invocations, which only `launchprof-bench tier-drift` measures (docs/doctor.md).
    public func tierFinding(tier: String, runs: Int = 20, thresholds: Thresholds = Thresholds()) -> Finding {
        let cv = median > 0 ? sigma / median : 0
        let medianError = Self.medianSpread(of: totals, runs: max(runs, 1))
        let z = NormalDistribution.quantile(1 - thresholds.alpha / 2) + NormalDistribution.quantile(0.8)
        let threshold = max(thresholds.time.percent / 100, median > 0 ? thresholds.time.floor / median : 0)
        let change = threshold + z * 2.0.squareRoot() * medianError
        let summary =
            "on \(PlainText.oneLine(tier)), \(totals.count) runs of the default launch: median \(DurationFormat.format(median)), robust spread ±\(percent(cv)), so a \(runs)-run median moves by ±\(percent(medianError)) on its own, and a check against a stored baseline (\(runs) runs a side) can see a slowdown of about \(percent(change)) here, before the host's drift between the two invocations"
        guard change > 0.1 else { return Finding(id: "tier-spread", status: .ok, summary: summary) }
        return Finding(
            id: "tier-spread", status: .warning, summary: summary + ": smaller regressions on this tier pass unnoticed",
            advice:
                "on a tier, compare interleaved (check --baseline-manifest, exec --baseline-command), which the host moves alike; or raise --runs; `launchprof-bench tier-drift` measures the drift between invocations (docs/tiers.md)"
        )
    }

    /// The standard deviation of log(median of `runs` values drawn from `values`), over 1,000 draws.
    static func medianSpread(of values: [Double], runs: Int) -> Double {
        var generator = SplitMix64(seed: 20)
        var logs: [Double] = []
        logs.reserveCapacity(1000)
        var sample = [Double](repeating: 0, count: runs)
        for _ in 0..<1000 {
            for i in 0..<runs { sample[i] = values[Int(generator.next() % UInt64(values.count))] }
            sample.sort()
            let median = runs % 2 == 1 ? sample[runs / 2] : (sample[runs / 2 - 1] + sample[runs / 2]) / 2
            logs.append(log(median))
        }
        let mean = logs.reduce(0, +) / Double(logs.count)
        return (logs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(logs.count - 1)).squareRoot()
    }
}

import LaunchCore
import LaunchExport
import LaunchStats

/// The run-to-run spread of a launch measured on the spot, and what it means for `check --runs auto`:
/// the smallest slowdown the sequential gate can call a regression here within its budget.
public struct LaunchSpread: Equatable, Sendable {
    /// Each run's total launch time, in seconds.
    public var totals: [Double]
    /// Median total.
    public var median: Double
    /// The robust standard deviation of one run: 1.4826 × the median absolute deviation.
    public var sigma: Double
    /// The 90th percentile over the 10th.
    public var p90OverP10: Double

    /// `nil` with fewer than 5 runs (too few to say anything about a spread).
    public init?(totals: [Double]) {
        let finite = totals.filter { $0.isFinite && $0 > 0 }
        guard finite.count >= 5, let summary = Summary(finite) else { return nil }
        let sorted = finite.sorted()
        self.totals = finite
        median = summary.median
        sigma = 1.4826 * summary.mad
        let p10 = Summary.quantile(sorted, 0.1)
        p90OverP10 = p10 > 0 ? Summary.quantile(sorted, 0.9) / p10 : 1
    }

    /// Pairs `check --runs auto` reaches within its budget: at most `maxRuns` a side, and as many
    /// as `maxTime` seconds hold at two launches (and `overhead` seconds of launching) a pair.
    public func pairsWithin(maxRuns: Int, maxTime: Double, overhead: Double) -> Int {
        let perPair = 2 * (median + overhead)
        guard perPair > 0 else { return maxRuns }
        return max(SequentialGate.firstLook, min(maxRuns, Int(maxTime / perPair)))
    }

    /// The smallest slowdown (seconds) the gate calls a regression at its last look with about 80%
    /// power: the threshold (`max(percent × median, floor)`) plus the sign-test interval's reach at
    /// that look, (z₁₋αₖ/₂ + z₀.₈) × 1.2533 × σ_d / √n, with σ_d = √2 σ the spread of a pair's
    /// difference (independent runs) and 1.2533 = √(π/2) the sign test's cost over a mean's interval
    /// for normal noise (docs/doctor.md).
    public func detectableChange(pairs: Int, thresholds: Thresholds = Thresholds()) -> Double {
        let gate = SequentialGate(alpha: thresholds.alpha, maxPairs: pairs)
        let alphaK = gate.alpha(atPairs: gate.looks.last ?? pairs)
        let z = NormalDistribution.quantile(1 - alphaK / 2) + NormalDistribution.quantile(0.8)
        let sigmaD = 2.0.squareRoot() * sigma
        let reach = z * (Double.pi / 2).squareRoot() * sigmaD / Double(max(pairs, 1)).squareRoot()
        let threshold = max(median * thresholds.time.percent / 100, thresholds.time.floor)
        return threshold + reach
    }

    /// The two findings: the spread itself, and the smallest change `check --runs auto` detects here.
    public func findings(maxRuns: Int = 200, maxTime: Double = 120, overhead: Double = 0.002, thresholds: Thresholds = Thresholds()) -> [Finding] {
        let cv = median > 0 ? sigma / median : 0
        let spreadText =
            "the default launch, \(totals.count) runs: median \(DurationFormat.format(median)), robust spread ±\(percent(cv)) (p90/p10 \(SecondsFormat.format(p90OverP10, precision: 2)))"
        let spread =
            cv <= 0.05 && p90OverP10 <= 1.2
            ? Finding(id: "launch-spread", status: .ok, summary: spreadText)
            : Finding(
                id: "launch-spread", status: .warning, summary: spreadText + ": runs here differ by more than a 5% change",
                advice:
                    "see the load, busy-process and frequency findings; a fixed --runs needs many runs here: prefer --runs auto, or --baseline-manifest (interleaved)"
            )
        let pairs = pairsWithin(maxRuns: maxRuns, maxTime: maxTime, overhead: overhead)
        let change = detectableChange(pairs: pairs, thresholds: thresholds)
        let share = median > 0 ? change / median : 0
        let detectText =
            "check --runs auto can call a slowdown of about \(percent(share)) (\(DurationFormat.format(change))) a regression here, at its budget of \(pairs) runs a side (--max-runs \(maxRuns), --max-time \(SecondsFormat.format(maxTime, precision: 0)) s)"
        let detect =
            share <= 0.1
            ? Finding(id: "detectable-change", status: .ok, summary: detectText)
            : Finding(
                id: "detectable-change", status: .warning, summary: detectText + ": smaller regressions pass unnoticed",
                advice: "quiet the machine (findings above), raise --max-runs / --max-time, or gate on --metric instructions")
        return [spread, detect]
    }

    func percent(_ share: Double) -> String { SecondsFormat.format(share * 100, precision: 1) + "%" }
}

/// The Wilcoxon signed-rank test on paired differences: do the pairs tend to differ in one direction?
///
/// Used for interleaved comparisons, where each baseline run has a candidate run launched right next
/// to it: slow drift of the machine moves both members of a pair alike and cancels in their
/// difference, so the test sees the change rather than the drift. Zero differences are dropped;
/// the p-value is exact for up to 30 pairs without ties, else the normal approximation with tie and
/// continuity corrections.
public enum WilcoxonSignedRank {
    public struct Result: Equatable, Sendable {
        /// The sum of the ranks of the positive differences.
        public var wPlus: Double
        /// Two-sided p-value.
        public var p: Double
        public var exact: Bool
    }

    /// Tests the differences `b[i] − a[i]`; `nil` when the samples are empty or of different sizes.
    public static func test(_ a: [Double], _ b: [Double]) -> Result? {
        guard !a.isEmpty, a.count == b.count else { return nil }
        let differences = zip(a, b).map { $1 - $0 }.filter { $0 != 0 }
        let n = differences.count
        guard n > 0 else { return Result(wPlus: 0, p: 1, exact: true) }
        let sorted = differences.enumerated().sorted { abs($0.element) < abs($1.element) }
        let (ranks, tieCorrection) = RankStatistics.averageRanks(ofSorted: sorted.map { abs($0.element) })
        let wPlus = zip(sorted, ranks).filter { $0.0.element > 0 }.reduce(0) { $0 + $1.1 }
        let mean = Double(n * (n + 1)) / 4

        if tieCorrection == 0 && n <= 30 {
            let p = RankStatistics.exactTwoSidedP(counts: exactDistribution(n: n), statistic: wPlus, mean: mean)
            return Result(wPlus: wPlus, p: p, exact: true)
        }
        let N = Double(n)
        let variance = N * (N + 1) * (2 * N + 1) / 24 - tieCorrection / 48
        return Result(wPlus: wPlus, p: RankStatistics.normalTwoSidedP(statistic: wPlus, mean: mean, variance: variance), exact: false)
    }

    /// How many subsets of the ranks 1…n have each sum 0…n(n+1)/2 (each is equally likely under no change).
    static func exactDistribution(n: Int) -> [Double] {
        var counts = [Double](repeating: 0, count: n * (n + 1) / 2 + 1)
        counts[0] = 1
        for rank in 1...n {
            for sum in stride(from: counts.count - 1, through: rank, by: -1) { counts[sum] += counts[sum - rank] }
        }
        return counts
    }
}

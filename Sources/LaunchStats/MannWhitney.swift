/// The Mann–Whitney U test (Wilcoxon rank-sum): do two samples come from the same distribution,
/// or does one tend to be larger?
///
/// It compares ranks, not values, so it needs no normal distribution, suits few and skewed samples
/// (launch times have a long right tail), and one wild run cannot dominate it. With small samples
/// and no ties the p-value is exact (the full distribution of U); otherwise the normal approximation
/// with tie and continuity corrections.
public enum MannWhitney {
    public struct Result: Equatable, Sendable {
        /// U of the first sample: how many (a, b) pairs have a > b (ties count ½).
        public var u: Double
        /// Two-sided p-value: the chance of a U at least this extreme if both samples were alike.
        public var p: Double
        public var exact: Bool
    }

    /// Tests `a` against `b`; `nil` when either is empty.
    public static func test(_ a: [Double], _ b: [Double]) -> Result? {
        let n = a.count, m = b.count
        guard n > 0, m > 0 else { return nil }
        // Rank the pooled sample, averaging the ranks of ties.
        let pooled = (a.map { ($0, 0) } + b.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        let (ranks, tieCorrection) = RankStatistics.averageRanks(ofSorted: pooled.map(\.0))
        let rankSumA = zip(pooled, ranks).filter { $0.0.1 == 0 }.reduce(0) { $0 + $1.1 }
        let u = rankSumA - Double(n * (n + 1)) / 2
        let mean = Double(n * m) / 2

        if tieCorrection == 0 && n * m <= 2500 {
            let p = RankStatistics.exactTwoSidedP(counts: exactDistribution(n: n, m: m), statistic: u, mean: mean)
            return Result(u: u, p: p, exact: true)
        }
        let nm = Double(n * m), N = Double(n + m)
        let variance = nm / 12 * ((N + 1) - tieCorrection / (N * (N - 1)))
        return Result(u: u, p: RankStatistics.normalTwoSidedP(statistic: u, mean: mean, variance: variance), exact: false)
    }

    /// The number of arrangements giving each U = 0…n·m, by the recurrence
    /// f(n, m, u) = f(n − 1, m, u − m) + f(n, m − 1, u).
    static func exactDistribution(n: Int, m: Int) -> [Double] {
        // table[j][u] for the current i (first sample size), j = 0…m.
        var previous = [[Double]](repeating: [1], count: m + 1)  // i = 0: only U = 0.
        for i in 1...n {
            var current = [[Double]](repeating: [], count: m + 1)
            current[0] = [1]
            for j in 0...m {
                var row = [Double](repeating: 0, count: i * j + 1)
                if j == 0 {
                    row[0] = 1
                } else {
                    // Largest element from the first sample: it beats all j of the second -> u - j.
                    let fromA = previous[j]
                    for (value, count) in fromA.enumerated() where value + j < row.count { row[value + j] += count }
                    // Largest element from the second sample: adds nothing.
                    let fromB = current[j - 1]
                    for (value, count) in fromB.enumerated() where value < row.count { row[value] += count }
                }
                current[j] = row
            }
            previous = current
        }
        return previous[m]
    }
}

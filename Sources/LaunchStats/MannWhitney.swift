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

    /// Whether samples of `n` and `m` values get the exact p-value (when there are no ties).
    public static func usesExactDistribution(n: Int, m: Int) -> Bool {
        let (product, overflow) = n.multipliedReportingOverflow(by: m)
        return !overflow && product <= 2500
    }

    /// Tests `a` against `b`; `nil` when either is empty.
    public static func test(_ a: [Double], _ b: [Double]) -> Result? {
        test(sortedA: a.sorted(), sortedB: b.sorted())
    }

    /// Tests samples already sorted ascending, ranking them by merging (O(n + m)). `exactCounts`, the
    /// distribution for these sizes, saves computing it again for every phase of the same run count.
    public static func test(sortedA a: [Double], sortedB b: [Double], exactCounts: [Double]? = nil) -> Result? {
        let n = a.count, m = b.count
        guard n > 0, m > 0 else { return nil }
        // Walk both samples in order, one group of equal values at a time: each group shares the
        // average of the ranks it covers.
        var i = 0, j = 0, position = 0
        var rankSumA = 0.0, tieCorrection = 0.0
        while i < n || j < m {
            let value = j >= m || (i < n && a[i] <= b[j]) ? a[i] : b[j]
            var inA = 0, inB = 0
            while i < n && a[i] == value { i += 1; inA += 1 }
            while j < m && b[j] == value { j += 1; inB += 1 }
            let t = inA + inB
            guard t > 0 else { return nil }  // NaN: no order.
            let averageRank = Double(position) + Double(t + 1) / 2
            rankSumA += Double(inA) * averageRank
            if t > 1 { let tt = Double(t); tieCorrection += tt * tt * tt - tt }
            position += t
        }
        let N = Double(n), M = Double(m)
        let u = rankSumA - N * (N + 1) / 2
        let mean = N * M / 2

        if tieCorrection == 0 && usesExactDistribution(n: n, m: m) {
            let counts = exactCounts.flatMap { $0.count == n * m + 1 ? $0 : nil } ?? exactDistribution(n: n, m: m)
            let p = RankStatistics.exactTwoSidedP(counts: counts, statistic: u, mean: mean)
            return Result(u: u, p: p, exact: true)
        }
        let variance = N * M / 12 * ((N + M + 1) - tieCorrection / ((N + M) * (N + M - 1)))
        return Result(u: u, p: RankStatistics.normalTwoSidedP(statistic: u, mean: mean, variance: variance), exact: false)
    }

    /// The number of arrangements giving each U = 0…n·m, by the recurrence
    /// f(n, m, u) = f(n − 1, m, u − m) + f(n, m − 1, u).
    public static func exactDistribution(n: Int, m: Int) -> [Double] {
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

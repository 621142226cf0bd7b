#if canImport(Glibc)
import Glibc
#endif

/// What the rank tests (Mann–Whitney U, Wilcoxon signed-rank) share: average ranks with a tie
/// correction, and two-sided p-values from an exact distribution or the normal approximation.
enum RankStatistics {
    /// Ranks 1…n of values already sorted ascending, ties sharing their average rank, and the tie
    /// correction Σ(t³ − t) over groups of t tied values.
    static func averageRanks(ofSorted values: [Double]) -> (ranks: [Double], tieCorrection: Double) {
        var ranks = [Double](repeating: 0, count: values.count)
        var tieCorrection = 0.0
        var i = 0
        while i < values.count {
            var j = i
            while j + 1 < values.count && values[j + 1] == values[i] { j += 1 }
            let rank = Double(i + j + 2) / 2
            for k in i...j { ranks[k] = rank }
            let t = Double(j - i + 1)
            tieCorrection += t * t * t - t
            i = j + 1
        }
        return (ranks, tieCorrection)
    }

    /// The two-sided p-value of `statistic` under an exact distribution (`counts[v]` arrangements give
    /// the value v): the share at least as far from `mean` as the one seen.
    static func exactTwoSidedP(counts: [Double], statistic: Double, mean: Double) -> Double {
        let total = counts.reduce(0, +)
        let distance = abs(statistic - mean)
        var extreme = 0.0
        for (value, count) in counts.enumerated() where abs(Double(value) - mean) >= distance - 1e-9 {
            extreme += count
        }
        return min(1, extreme / total)
    }

    /// The two-sided p-value by the normal approximation with a continuity correction.
    static func normalTwoSidedP(statistic: Double, mean: Double, variance: Double) -> Double {
        guard variance > 0 else { return 1 }
        let z = max(0, abs(statistic - mean) - 0.5) / variance.squareRoot()
        return min(1, erfc(z / 2.0.squareRoot()))
    }
}

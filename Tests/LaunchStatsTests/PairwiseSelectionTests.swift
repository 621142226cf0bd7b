import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import LaunchStats

/// The k-th pairwise difference found by interpolated bisection and selection, against listing and
/// sorting all n·m differences: continuous values on many scales, outliers, and the orders the
/// 99% shift interval asks for.
@Suite struct PairwiseSelectionTests {
    struct Generator {
        var state: UInt64
        mutating func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test func kthDifferenceEqualsTheSortedListing() {
        var g = Generator(state: 7)
        for (n, m, scale) in [(100, 100, 1e-5), (100, 100, 3.0), (37, 120, 1e3), (250, 9, 1e-9), (100, 100, 0.02)] {
            // Skewed values (exp of uniform, spanning 3 decades), with a few far outliers.
            var a = (0..<n).map { _ in scale * exp(6.9 * g.unit()) }
            var b = (0..<m).map { _ in scale * 1.05 * exp(6.9 * g.unit()) }
            a[0] *= 1e6
            b[m - 1] = -b[m - 1]
            a.sort()
            b.sort()
            let all = a.flatMap { x in b.map { $0 - x } }.sorted()
            var orders = [1, all.count, all.count / 2]
            if let k = RankIntervals.shiftOrder(n: n, m: m, confidence: 0.99) { orders += [k - 1, k, k + 1, all.count - k, all.count + 1 - k] }
            for k in orders where k >= 1 && k <= all.count {
                #expect(RankIntervals.kthPairwiseDifference(sortedA: a, sortedB: b, k: k) == all[k - 1], "n \(n) m \(m) k \(k)")
            }
        }
    }

    @Test func shiftIntervalEndsAreOrderStatistics() throws {
        var g = Generator(state: 11)
        let a = (0..<100).map { _ in 0.010 + 0.0003 * g.unit() }.sorted()
        let b = (0..<100).map { _ in 0.011 + 0.0003 * g.unit() }.sorted()
        let all = a.flatMap { x in b.map { $0 - x } }.sorted()
        let k = try #require(RankIntervals.shiftOrder(n: 100, m: 100, confidence: 0.99))
        let interval = try #require(RankIntervals.shiftInterval(sortedA: a, sortedB: b, confidence: 0.99))
        #expect(interval.lower == all[k - 1])
        #expect(interval.upper == all[all.count - k])
        #expect(interval.lower > 0)
    }
}

import LaunchStats
import Testing

@testable import LaunchChangePoints

/// E-Divisive's statistic against its definition.
struct EnergyStatisticTests {
    /// Q(τ) straight from the definition (the second side running to `kappa`), in O(L²).
    static func directQ(_ z: [Double], a: Int, tau: Int, kappa: Int) -> Double {
        let x = Array(z[a..<tau]), y = Array(z[tau..<kappa])
        let n = Double(x.count), m = Double(y.count)
        var between = 0.0, withinX = 0.0, withinY = 0.0
        for p in x { for q in y { between += abs(p - q) } }
        for i in x.indices { for k in (i + 1)..<x.count where k < x.count { withinX += abs(x[i] - x[k]) } }
        for i in y.indices { for k in (i + 1)..<y.count where k < y.count { withinY += abs(y[i] - y[k]) } }
        return 2 * between / (n + m) - 2 * m * withinX / ((n + m) * (n - 1)) - 2 * n * withinY / ((n + m) * (m - 1))
    }

    @Test func theBestSplitIsTheDefinitionsMaximum() {
        var generator = SplitMix64(seed: 42)
        let z = (0..<40).map { i in (i < 23 ? 1.0 : 1.3) + Double.random(in: -0.2...0.2, using: &generator) }
        let range = 3..<37, minimum = 3
        var bestQ = -Double.infinity, bestTau = -1
        for tau in (range.lowerBound + minimum)...(range.upperBound - minimum) {
            let q = Self.directQ(z, a: range.lowerBound, tau: tau, kappa: range.upperBound)
            if q > bestQ { bestQ = q; bestTau = tau }
        }
        let candidate = EnergyStatistic.bestSplit(z, in: range, minimumSegment: minimum)
        #expect(candidate?.index == bestTau)
        #expect(abs((candidate?.q ?? 0) - bestQ) < 1e-9 * abs(bestQ))
        #expect(bestTau == 23)
        // Ties (a constant stretch, or repeated values) leave the within sums exact.
        let tied: [Double] = [1, 1, 2, 2, 1, 3, 3, 3, 1, 2]
        let sums = EnergyStatistic.prefixWithinSums(tied)
        for k in 0...tied.count {
            var direct = 0.0
            for i in 0..<k { for j in (i + 1)..<k where j < k { direct += abs(tied[i] - tied[j]) } }
            #expect(sums[k] == direct, "W(0, \(k))")
        }
    }

    @Test func aStretchShorterThanTwoSegmentsHasNoSplit() {
        #expect(EnergyStatistic.bestSplit([1, 2, 3, 4, 5], in: 0..<5, minimumSegment: 3) == nil)
        #expect(EnergyStatistic.bestSplit([1, 2, 3, 4, 5, 6], in: 0..<6, minimumSegment: 3)?.index == 3)
    }
}

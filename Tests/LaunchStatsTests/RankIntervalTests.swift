import Testing
@testable import LaunchStats

/// The rank-based intervals against values computed by hand from the exact distributions.
@Suite struct RankIntervalTests {
    @Test func shiftOrderMatchesTheMannWhitneyTables() {
        // n = m = 5: P(U ≤ 0) = 1/252 ≤ 0.005 < P(U ≤ 1) = 2/252, so k = 1 at 99%;
        // P(U ≤ 2) = 4/252 ≤ 0.025 < P(U ≤ 3) = 7/252, so k = 3 at 95%.
        let counts = MannWhitney.exactDistribution(n: 5, m: 5)
        #expect(RankIntervals.shiftOrder(n: 5, m: 5, confidence: 0.99, exactCounts: counts) == 1)
        #expect(RankIntervals.shiftOrder(n: 5, m: 5, confidence: 0.95, exactCounts: counts) == 3)
        // n = m = 3: even the widest interval has 1 − 2/20 = 90% coverage, short of 99%.
        #expect(RankIntervals.shiftOrder(n: 3, m: 3, confidence: 0.99, exactCounts: MannWhitney.exactDistribution(n: 3, m: 3)) == nil)
        // Large samples: the normal approximation, k = ⌊nm/2 + ½ − z·σ⌋ = ⌊5000.5 − 2.5758·409.27⌋ = 3946.
        #expect(RankIntervals.shiftOrder(n: 100, m: 100, confidence: 0.99) == 3946)
    }

    @Test func shiftIntervalOfSeparatedSamples() throws {
        // b − a over all pairs of 1…5 and 6…10: 1…9 occurring 1 2 3 4 5 4 3 2 1 times.
        let a: [Double] = [1, 2, 3, 4, 5], b: [Double] = [6, 7, 8, 9, 10]
        let counts = MannWhitney.exactDistribution(n: 5, m: 5)
        let wide = try #require(RankIntervals.shiftInterval(sortedA: a, sortedB: b, confidence: 0.99, exactCounts: counts))
        #expect(wide.lower == 1 && wide.upper == 9)
        let narrow = try #require(RankIntervals.shiftInterval(sortedA: a, sortedB: b, confidence: 0.95, exactCounts: counts))
        #expect(narrow.lower == 2 && narrow.upper == 8)
    }

    @Test func kthPairwiseDifferenceAgreesWithListingThemAll() {
        var state: UInt64 = 42
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 40) / Double(1 << 24)
        }
        for (n, m) in [(1, 1), (3, 7), (40, 25), (100, 100)] {
            // Coarse values, so there are many ties.
            let a = (0..<n).map { _ in (next() * 50).rounded() / 10 }.sorted()
            let b = (0..<m).map { _ in (next() * 50).rounded() / 10 + 0.3 }.sorted()
            let all = a.flatMap { x in b.map { $0 - x } }.sorted()
            for k in Set([1, 2, all.count / 3, all.count / 2, all.count - 1, all.count].filter { $0 >= 1 && $0 <= all.count }) {
                #expect(RankIntervals.kthPairwiseDifference(sortedA: a, sortedB: b, k: k) == all[k - 1], "n \(n) m \(m) k \(k)")
            }
        }
        #expect(RankIntervals.kthPairwiseDifference(sortedA: [1], sortedB: [2], k: 2) == nil)
        #expect(RankIntervals.kthPairwiseDifference(sortedA: [-1e308], sortedB: [1e308], k: 1) == nil)
    }

    @Test func signTestIntervalOfTenPairs() throws {
        // Binomial(10, ½): P(K ≤ 0) = 1/1024 ≤ 0.005 < P(K ≤ 1) = 11/1024 → k = 1 at 99%;
        // P(K ≤ 1) = 11/1024 ≤ 0.025 < P(K ≤ 2) = 56/1024 → k = 2 at 95%.
        #expect(RankIntervals.signTestOrder(n: 10, confidence: 0.99) == 1)
        #expect(RankIntervals.signTestOrder(n: 10, confidence: 0.95) == 2)
        #expect(RankIntervals.signTestOrder(n: 5, confidence: 0.99) == nil)
        let a = [Double](repeating: 100, count: 10)
        let b = [107, 101, 110, 104, 103, 109, 102, 105, 108, 106].map(Double.init)
        let interval = try #require(RankIntervals.pairedInterval(a, b, confidence: 0.95))
        #expect(interval.lower == 2 && interval.upper == 9)
    }

    @Test func normalQuantileKnownValues() {
        #expect(abs(NormalDistribution.quantile(0.975) - 1.959963984540054) < 1e-9)
        #expect(abs(NormalDistribution.quantile(0.995) - 2.5758293035489) < 1e-9)
        #expect(NormalDistribution.quantile(0.5) == 0 || abs(NormalDistribution.quantile(0.5)) < 1e-12)
        #expect(NormalDistribution.quantile(.nan).isNaN)
    }

    @Test func selectionMedianEqualsTheSortedMedian() {
        var state: UInt64 = 7
        for count in [1, 2, 3, 10, 101, 1000] {
            var values = (0..<count).map { _ -> Double in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double(state >> 54)  // Many ties.
            }
            let expected = Summary.quantile(values.sorted(), 0.5)
            #expect(Selection.median(&values) == expected)
        }
    }
}

/// Statistics arithmetic on hostile values: no trap, bounded suggestions (issue 12, class 8).
@Suite struct StatisticsArithmeticTests {
    @Test func suggestedRunsAreCapped() {
        #expect(Comparison.suggestedRuns(.infinity) == Comparison.maximumSuggestedRuns)
        #expect(Comparison.suggestedRuns(1e300) == Comparison.maximumSuggestedRuns)
        #expect(Comparison.suggestedRuns(.nan) == nil)
        #expect(Comparison.suggestedRuns(0.2) == 1)
        #expect(Comparison.suggestedRuns(-5) == 1)
        #expect(Comparison.suggestedRuns(41.5) == 42)
    }

    @Test func aChangeJustUnderTheThresholdDoesNotOverflow() {
        // 6.25% of a 1 s median is 62.5 ms; the change is 2⁻⁵⁰ s under it (exact in binary) and the
        // test cannot decide: the old estimate overflowed converting to Int.
        let a = [0.5, 1.0, 1.5], b = a.map { $0 + (0.0625 - 0x1p-50) }
        let row = Comparison.compare(path: "p", name: "p", depth: 0, a, b, Thresholds(percent: 6.25, seconds: 0))
        #expect(row.change == 0.0625 - 0x1p-50)
        #expect(row.verdict == .inconclusive)
        #expect(row.moreRunsNeeded == Comparison.maximumSuggestedRuns)
    }

    @Test func aZeroThresholdAndZeroMediansAreFine() {
        let zero = Thresholds(percent: 0, seconds: 0)
        let same = Comparison.compare(path: "p", name: "p", depth: 0, [0, 0, 0], [0, 0, 0], zero)
        #expect(same.changePercent == nil)
        #expect(same.verdict == .withinNoise || same.verdict == .inconclusive)
        let row = Comparison.compare(path: "p", name: "p", depth: 0, [1, 2, 3], [1, 2, 3.5], zero)
        #expect(row.moreRunsNeeded.map { $0 >= 1 && $0 <= Comparison.maximumSuggestedRuns } ?? true)
        // Non-finite values take no part.
        let odd = Comparison.compare(path: "p", name: "p", depth: 0, [.nan, .infinity, 1], [1, -.infinity], Thresholds())
        #expect(odd.baselineMedian == 1 && odd.candidateMedian == 1)
        #expect(Summary.quantile([1, 2], .nan).isNaN)
        #expect(Summary.quantile([1, 2], 7) == 2)
    }
}

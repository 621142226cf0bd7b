import Testing
@testable import LaunchExport
import LaunchCore
import LaunchStats

/// Every verdict says why, in words and with its numbers (docs/comparison.md, "Reading a verdict").
@Suite struct VerdictWordingTests {
    /// `n` values spread evenly by ±`spread` around `center`.
    func around(_ center: Double, _ n: Int = 10, spread: Double = 0.0001) -> [Double] {
        (0..<n).map { center + (Double($0) - Double(n - 1) / 2) * spread }
    }

    func compare(_ a: [Double], _ b: [Double], thresholds: Thresholds = Thresholds()) -> ComparisonRow {
        Comparison.compareSamples(name: "drawing", baseline: a, candidate: b, thresholds: thresholds, paired: false, metric: .time)
    }

    @Test func aRegressionSaysByHowMuchAndOverWhichThreshold() {
        let row = compare(around(0.200), around(0.220))
        #expect(row.verdict == .slower)
        let text = ComparisonWording.verdict(row)
        #expect(text.hasPrefix("slower: +10.0% (+20.0 ms, 99% CI +"))
        #expect(text.hasSuffix("), over the 5% threshold (--threshold); confidence 99.99%"))
    }

    @Test func aRealChangeUnderTheRelativeThresholdIsWithinNoiseAndSaysWhy() {
        // +3%: certain, but under 5%.
        let row = compare(around(0.100), around(0.103))
        #expect(row.verdict == .withinNoise)
        let text = ComparisonWording.verdict(row)
        #expect(text.hasPrefix("within noise: +3.0% (+3.00 ms, 99% CI +"))
        #expect(text.hasSuffix(" is real, but under the 5% threshold (--threshold): not a regression"))
    }

    @Test func aLargeShareOfATinyPhaseIsBelowTheMinimumChange() {
        // The drawing row: +30.8% of 3.9 ms is 1.2 ms, under the 2 ms floor.
        let row = compare(around(0.0039, spread: 0.00001), around(0.0051, spread: 0.00001))
        #expect(row.verdict == .withinNoise)
        let text = ComparisonWording.verdict(row)
        #expect(text.hasPrefix("within noise: +30.8% (99% CI +"))
        #expect(text.hasSuffix("), but only +1.20 ms: under the 2.00 ms minimum change (51.3% here, --min-change), not a regression"))
        #expect(!text.contains("inconclusive"))
    }

    @Test func anIntervalInsideTheThresholdSaysSo() {
        let row = compare(around(0.100), around(0.100))
        #expect(row.verdict == .withinNoise)
        let text = ComparisonWording.verdict(row)
        #expect(text.hasPrefix("within noise: +0.0% (+0 s, 99% CI "))
        #expect(text.hasSuffix("): the whole interval inside ±5% (--threshold), any change is smaller"))
    }

    @Test func tooFewRunsForTheTestSayHowManyItNeeds() {
        // +29.7% with 3 runs each: the exact rank test's smallest p-value is 0.1, so no run count
        // from the interval alone would decide it; 5 runs each can.
        let row = compare([0.100, 0.101, 0.102], [0.130, 0.131, 0.132])
        #expect(row.verdict == .inconclusive)
        #expect(row.runsForSignificance == 5)
        #expect(row.moreRunsNeeded == 2)
        let text = ComparisonWording.verdict(row)
        #expect(text.hasPrefix("inconclusive: +29.7% (+30.0 ms"))
        #expect(
            text.hasSuffix(
                " is past the 5% threshold (--threshold), but 3 runs each cannot reach significance (the rank test needs 5 each); ~2 more runs each would decide"
            ))
    }

    @Test func anIntervalAcrossTheThresholdIsInconclusiveWithTheRunsThatWouldDecide() {
        var row = ComparisonRow(path: "drawing", name: "drawing", depth: 0, verdict: .inconclusive)
        row.baselineMedian = 0.010
        row.candidateMedian = 0.01225
        row.change = 0.00225
        row.changePercent = 22.5
        row.threshold = 0.002
        row.thresholdPercent = 5
        row.intervalLower = 0.0016
        row.intervalUpper = 0.00235
        row.moreRunsNeeded = 12
        #expect(
            ComparisonWording.verdict(row)
                == "inconclusive: +22.5% (+2.25 ms, 99% CI +16.0%…+23.5%) straddles the 2.00 ms minimum change (20% here, --min-change); ~12 more runs each would decide"
        )
    }

    @Test func theRunsToSuggestCoverTheTestsMinimum() {
        #expect(Comparison.runsForSignificance(alpha: 0.01) == 5)  // 2 / C(10, 5) = 0.0079
        #expect(Comparison.runsForSignificance(alpha: 0.05) == 4)  // 2 / C(8, 4) = 0.029
        #expect(Comparison.runsForSignificance(alpha: 0.0001) == 9)  // 2 / C(16, 8) = 0.00016; 2 / C(18, 9) = 0.000041
    }

    @Test func deterministicCountsNeedNoTest() {
        let a = Array(repeating: 1_000_000.0, count: 3), b = Array(repeating: 1_030_000.0, count: 3)
        let row = Comparison.compareSamples(name: "drawing", baseline: a, candidate: b, thresholds: Thresholds(), paired: false, metric: .instructions)
        #expect(ComparisonWording.verdict(row) == "slower: +3.0% (+30.0 K), deterministic counts, over the 1% threshold (--threshold)")
        // +1.2% of 500,000 is 6,000 instructions: under the 10,000 floor.
        let small = Comparison.compareSamples(
            name: "drawing", baseline: Array(repeating: 500_000.0, count: 3), candidate: Array(repeating: 506_000.0, count: 3), thresholds: Thresholds(),
            paired: false, metric: .instructions)
        #expect(
            ComparisonWording.verdict(small)
                == "within noise: +1.2%, but only +6.0 K: under the 10.0 K minimum change (2% here), not a regression")
    }

    @Test func addedAndRemovedRowsNeedNoReason() {
        #expect(ComparisonWording.verdict(compare([], [0.1])) == "added")
        #expect(ComparisonWording.verdict(compare([0.1], [])) == "removed")
    }
}

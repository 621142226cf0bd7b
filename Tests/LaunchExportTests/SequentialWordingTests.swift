import Testing
@testable import LaunchExport
import LaunchCore
import LaunchStats

/// The words of `check --runs auto` for a row its sequential rule decided, or left undecided.
@Suite struct SequentialWordingTests {
    func row(_ decision: SequentialGate.Decision, change: Double, lower: Double?, upper: Double?, level: Double, pairs: Int) -> ComparisonRow {
        var row = ComparisonRow(path: "drawing", name: "drawing", depth: 0, verdict: .withinNoise)
        row.baselineMedian = 0.1
        row.candidateMedian = 0.1 + change
        row.threshold = 0.005
        row.thresholdPercent = 5
        row.apply(SequentialGate.Outcome(decision: decision, change: change, lower: lower, upper: upper, level: level), pairs: pairs)
        return row
    }

    @Test func anUndecidedPhaseIsReportedInTheIssuesWords() {
        let undecided = row(.undecided, change: 0.0031, lower: -0.0004, upper: 0.0066, level: 0.95, pairs: 64)
        #expect(undecided.verdict == .inconclusive)
        #expect(
            ComparisonWording.verdict(undecided)
                == "inconclusive after 64 runs each: +3.1% (+3.10 ms, 95% CI −0.4%…+6.6%) straddles the 5% threshold (--threshold); still undecided when the runs stopped (--max-runs, --max-time)"
        )
        let levelled = row(.undecided, change: -0.0012, lower: -0.0050, upper: 0.0021, level: 0.9972, pairs: 183)
        #expect(
            ComparisonWording.verdict(levelled).hasPrefix("inconclusive after 183 runs each: -1.2% (-1.20 ms, 99.7% CI −5.0%…+2.1%) straddles the 5% threshold")
        )
    }

    @Test func decidedPhasesSayAfterHowManyRuns() {
        let slower = row(.slower, change: 0.02, lower: 0.011, upper: 0.03, level: 0.999, pairs: 16)
        #expect(slower.verdict == .slower)
        #expect(
            ComparisonWording.verdict(slower)
                == "slower after 16 runs each: +20.0% (+20.0 ms, 99.9% CI +11.0%…+30.0%), the whole interval over the 5% threshold (--threshold)")
        let notSlower = row(.notSlower, change: 0, lower: -0.001, upper: 0.001, level: 0.99, pairs: 24)
        #expect(notSlower.verdict == .withinNoise)
        #expect(
            ComparisonWording.verdict(notSlower)
                == "within noise after 24 runs each: +0.0% (+0 s, 99% CI −1.0%…+1.0%): the whole interval inside ±5% (--threshold), any change is smaller")
        // The issue's case: +30.8% of a 3.9 ms phase, decided not slower by the 2 ms floor.
        var small = row(.notSlower, change: 0.0012, lower: 0.001127, upper: 0.001287, level: 0.998, pairs: 16)
        small.baselineMedian = 0.0039
        small.changePercent = 0.0012 / 0.0039 * 100
        small.threshold = 0.002
        #expect(
            ComparisonWording.verdict(small)
                == "within noise after 16 runs each: +30.8% (99.8% CI +28.9%…+33.0%), but only +1.20 ms: under the 2.00 ms minimum change (51.3% here, --min-change), not a regression"
        )
    }

    @Test func tooFewPairsForAnyIntervalSaySo() {
        let early = row(.undecided, change: 0.001, lower: nil, upper: nil, level: 0.999, pairs: 3)
        #expect(
            ComparisonWording.verdict(early)
                == "inconclusive after 3 runs each: +1.0% (+1.00 ms): no interval yet to set against the 5% threshold (--threshold); still undecided when the runs stopped (--max-runs, --max-time)"
        )
    }
}

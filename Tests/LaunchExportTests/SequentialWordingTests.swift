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
        row.apply(SequentialGate.Outcome(decision: decision, change: change, lower: lower, upper: upper, level: level), pairs: pairs)
        return row
    }

    @Test func anUndecidedPhaseIsReportedInTheIssuesWords() {
        let undecided = row(.undecided, change: 0.0031, lower: -0.0004, upper: 0.0066, level: 0.95, pairs: 64)
        #expect(undecided.verdict == .inconclusive)
        #expect(ComparisonWording.verdict(undecided) == "inconclusive after 64 runs (change +3.1%, 95% CI −0.4%…+6.6%)")
        let levelled = row(.undecided, change: -0.0012, lower: -0.0050, upper: 0.0021, level: 0.9972, pairs: 183)
        #expect(ComparisonWording.verdict(levelled) == "inconclusive after 183 runs (change -1.2%, 99.7% CI −5.0%…+2.1%)")
    }

    @Test func decidedPhasesSayAfterHowManyRuns() {
        let slower = row(.slower, change: 0.02, lower: 0.011, upper: 0.03, level: 0.999, pairs: 16)
        #expect(slower.verdict == .slower)
        #expect(ComparisonWording.verdict(slower) == "slower after 16 runs (99.9% CI +11.0%…+30.0%)")
        let notSlower = row(.notSlower, change: 0, lower: -0.001, upper: 0.001, level: 0.99, pairs: 24)
        #expect(notSlower.verdict == .withinNoise)
        #expect(ComparisonWording.verdict(notSlower).hasPrefix("within noise after 24 runs (99% CI −1.0%…+1.0%)"))
    }

    @Test func tooFewPairsForAnyIntervalSaySo() {
        let early = row(.undecided, change: 0.001, lower: nil, upper: nil, level: 0.999, pairs: 3)
        #expect(ComparisonWording.verdict(early) == "inconclusive after 3 runs (change +1.0%, no interval yet)")
    }
}

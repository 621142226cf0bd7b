import Testing
@testable import LaunchStats
import LaunchCore

/// Holm's step-down over a comparison's rows (``FamilyCorrection``): exact levels on made-up rows,
/// then whole comparisons whose p-values are known from the exact Mann–Whitney distribution.
@Suite struct FamilyCorrectionTests {
    /// A row called slower by its own test at α, with a 20% change past a 5% threshold.
    static func slowerRow(_ name: String, p: Double) -> ComparisonRow {
        var row = ComparisonRow(path: name, name: name, depth: 0, verdict: .slower)
        row.p = p
        row.baselineMedian = 1
        row.candidateMedian = 1.2
        row.change = 0.2
        row.changePercent = 20
        row.threshold = 0.05
        row.intervalLower = 0.1
        row.intervalUpper = 0.3
        row.runsEach = 8
        return row
    }

    @Test func eachRowIsJudgedAtItsStepsLevel() {
        // m = 3: levels 0.01/3, 0.01/2, 0.01 in order of p.
        var rows = [Self.slowerRow("b", p: 0.004), Self.slowerRow("a", p: 0.001), Self.slowerRow("c", p: 0.009)]
        #expect(Comparison.applyHolm(&rows, alpha: 0.01) == 3)
        #expect(rows.map(\.verdict) == [.slower, .slower, .slower])
        #expect(rows.allSatisfy { $0.note == nil })
    }

    @Test func theFirstRowNotRejectedStopsTheSteps() {
        // 0.004 is past 0.01/3 = 0.0033: it and every row after it (0.0045 at 0.005 alone would pass) keep no change.
        var rows = [Self.slowerRow("a", p: 0.004), Self.slowerRow("b", p: 0.0045), Self.slowerRow("c", p: 0.0041)]
        #expect(Comparison.applyHolm(&rows, alpha: 0.01) == 3)
        #expect(rows.map(\.verdict) == [.inconclusive, .inconclusive, .inconclusive])
        #expect(rows[0].note?.contains("significant alone (p = 0.0040)") == true)
        #expect(abs((rows[0].familyLevel ?? 0) - 0.01 / 3) < 1e-12)
        #expect(abs((rows[1].familyLevel ?? 0) - 0.01) < 1e-12)
        #expect(rows[0].note?.contains("not among the 3 rows tested together (Holm: p < 0.0033 needed") == true)
        // The runs suggested are those that would reach the row's level, not α's.
        #expect((rows[0].moreRunsNeeded ?? 0) > 0)
    }

    @Test func rowsWithoutATestTakeNoPart() {
        var counted = ComparisonRow(path: "counts", name: "counts", depth: 0, verdict: .slower)
        counted.deterministic = true
        var rows = [Self.slowerRow("a", p: 0.004), counted, ComparisonRow(path: "new", name: "new", depth: 0, verdict: .added)]
        // One row tested: its level is α itself.
        #expect(Comparison.applyHolm(&rows, alpha: 0.01) == 1)
        #expect(rows.map(\.verdict) == [.slower, .slower, .added])
    }

    @Test func aDemotedRowWhoseIntervalIsWithinTheThresholdIsWithinNoise() {
        // m = 2: 0.006 is past 0.01/2.
        var row = Self.slowerRow("a", p: 0.006)
        row.intervalLower = -0.01
        row.intervalUpper = 0.04
        var rows = [row, Self.slowerRow("b", p: 0.5)]
        #expect(Comparison.applyHolm(&rows, alpha: 0.01) == 2)
        #expect(rows[0].verdict == .withinNoise)
    }

    /// `phases` phases alike on both sides, and one whose candidate is 20% slower with `overlap`
    /// of the baseline's 8 runs above its fastest run (U = overlap: p = 0.0030 for 5, 0.00016 for 0).
    static func sides(phases: Int, overlap: Int) -> (LaunchResult, LaunchResult) {
        let baseline = (0..<8).map { 1.0 + Double($0) * 0.01 }
        var candidate = baseline.map { $0 * 1.2 }
        if overlap > 0 { candidate[0] = baseline[8 - overlap] - 0.005 }
        let alike = (0..<phases).map { ("phase \($0)", Array(Fixed.around(0.1).prefix(8))) }
        return (Fixed.result(alike + [("slow", baseline)]), Fixed.result(alike + [("slow", candidate)]))
    }

    @Test func perRowARowSignificantAloneIsSlower() throws {
        let (a, b) = Self.sides(phases: 20, overlap: 5)
        let comparison = Comparison(baseline: a, candidate: b)
        let slow = try #require(comparison.rows.first { $0.path == "slow" })
        #expect(abs((slow.p ?? 1) - 0.0029526) < 1e-6)
        #expect(slow.verdict == .slower)
        #expect(comparison.family == nil)
    }

    @Test func amongTwentyTwoRowsItIsNot() throws {
        let (a, b) = Self.sides(phases: 20, overlap: 5)
        var thresholds = Thresholds()
        thresholds.family = .holm
        let comparison = Comparison(baseline: a, candidate: b, thresholds: thresholds)
        let slow = try #require(comparison.rows.first { $0.path == "slow" })
        #expect(comparison.family == TestedTogether(correction: .holm, rows: 22, alpha: 0.01))
        #expect(slow.verdict == .inconclusive)
        #expect(!comparison.regressions.contains { $0.path == "slow" })
    }

    @Test func aClearRegressionIsFoundAmongThemAll() throws {
        // U = 0 (p = 0.000155) passes 0.01 / 22 = 0.00045.
        let (a, b) = Self.sides(phases: 20, overlap: 0)
        var thresholds = Thresholds()
        thresholds.family = .holm
        let comparison = Comparison(baseline: a, candidate: b, thresholds: thresholds)
        #expect(comparison.rows.first { $0.path == "slow" }?.verdict == .slower)
    }

    @Test func onlyATierJudgesTheRowsTogether() {
        let host = Fixed.result([("Init", [0.1, 0.1])]), tier = Fixed.result([("Init", [0.1, 0.1])], tier: "iphone-3gs")
        #expect(Thresholds().forResults(host, host).family == .perRow)
        #expect(Thresholds().forResults(host, nil).family == .perRow)
        #expect(Thresholds().forResults(tier, host).family == .holm)
        #expect(Thresholds().forResults(host, tier).family == .holm)
        #expect(Thresholds(percent: 3).forResults(tier).percent == 3)
    }

    @Test func pValuesInNotesKeepTwoSignificantDigits() {
        #expect(PValueFormat.short(0.0048) == "0.0048")
        #expect(PValueFormat.short(0.00045454) == "0.00045")
        #expect(PValueFormat.short(0.5) == "0.50")
        #expect(PValueFormat.short(0.01) == "0.010")
    }
}

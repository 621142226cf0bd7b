import Testing
@testable import LaunchStats
import LaunchCore

/// Marks (`first frame`, `interactive`) are rows like phases: `Time to first frame`, the time from
/// the spawn in every run that reached it, compared by `diff` and `check` and held to budgets.
@Suite struct MarkRowTests {
    /// `Fixed.result` with a `first frame` and an `interactive` mark per run at the given times.
    func result(firstFrame: [Double], interactive: [Double]) -> LaunchResult {
        var result = Fixed.result([("drawing", Fixed.around(0.3))])
        for i in result.runs.indices {
            result.runs[i].marks = [
                MarkRecord(name: "first frame", time: firstFrame[i]),
                MarkRecord(name: "interactive", time: interactive[i]),
                MarkRecord(name: "first frame", time: 99)
            ]  // A repeat counts at its first time.
        }
        return result
    }

    @Test func marksBecomeRowsAfterThePhasesInTheOrderTheyCame() {
        let table = PhaseTable(result(firstFrame: Fixed.around(0.05), interactive: Fixed.around(0.36)))
        #expect(table.rows.map(\.name) == ["drawing", "Time to first frame", "Time to interactive"])
        #expect(table.markRows.map(\.isMark) == [true, true])
        #expect(table.phaseRows.map(\.name) == ["drawing"])
        #expect(table.markRows[0].durations == Fixed.around(0.05))
    }

    @Test func aMarkSomeRunsMissIsNeverTakenAsZero() {
        var r = result(firstFrame: Fixed.around(0.05), interactive: Fixed.around(0.36))
        r.runs[0].marks.removeAll { $0.name == "interactive" }
        let row = PhaseTable(r).markRows[1]
        #expect(row.durations.count == 9)
        #expect(!row.durations.contains(0))
    }

    @Test func aSlowerFirstFrameIsARegressionAndAnUnchangedOneIsNot() {
        let baseline = result(firstFrame: Fixed.around(0.05), interactive: Fixed.around(0.36))
        let slower = result(firstFrame: Fixed.around(0.08), interactive: Fixed.around(0.36))
        let comparison = Comparison(baseline: baseline, candidate: slower)
        #expect(comparison.regressions.map(\.name) == ["Time to first frame"])
        #expect(comparison.rows.first { $0.name == "Time to interactive" }?.verdict == .withinNoise)
    }

    @Test func budgetsHoldMarksByTheirRowName() {
        let budget = Budget(limits: ["host": ["Time to interactive": 0.3, "Time to first frame": 0.5]])
        let violations = budget.violations(in: result(firstFrame: Fixed.around(0.05), interactive: Fixed.around(0.36)))
        #expect(violations.map(\.phase) == ["Time to interactive"])
    }
}

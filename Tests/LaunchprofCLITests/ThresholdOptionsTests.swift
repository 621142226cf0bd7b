import LaunchStats
import Testing

@testable import LaunchprofCLI

/// `--threshold`, `--min-change`, `--phase-threshold` and `--alpha` made into ``Thresholds``: what an
/// option sets changes, everything else keeps its default.
struct ThresholdOptionsTests {
    @Test func unsetOptionsKeepEveryDefault() throws {
        #expect(try ThresholdOptions.parse([]).thresholds() == Thresholds())
    }

    @Test func eachOptionSetsOnlyItsOwnValue() throws {
        let options = try ThresholdOptions.parse(["--threshold", "instructions=3", "--min-change", "0.01", "--phase-threshold", "drawing=10", "--alpha", "0.05"]
        )
        let thresholds = try options.thresholds()
        let defaults = Thresholds()
        #expect(thresholds.time.percent == defaults.time.percent && thresholds.time.floor == 0.01)
        #expect(thresholds.instructions.percent == 3 && thresholds.instructions.floor == defaults.instructions.floor)
        #expect(thresholds.perPhase == ["drawing": 10] && thresholds.alpha == 0.05)
    }

    @Test func aBareThresholdSetsBothMetrics() throws {
        let thresholds = try ThresholdOptions.parse(["--threshold", "7"]).thresholds()
        #expect(thresholds.time.percent == 7 && thresholds.instructions.percent == 7)
    }
}

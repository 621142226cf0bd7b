import Testing
import LaunchCore
@testable import LaunchStats

/// Comparisons of instruction counts: repeatable counts are compared directly.
struct MetricComparisonTests {
    /// A result whose runs count `drawing` and the total as given (time stays the same).
    func result(drawing counts: [Int], extra: Int = 1_000_000) -> LaunchResult {
        let runs = counts.enumerated().map { i, count in
            var run = RunRecord(
                index: i + 1, total: 0.1,
                phases: [
                    PhaseRecord(name: "Init", start: 0, duration: 0.01, instructions: extra),
                    PhaseRecord(name: "drawing", start: 0.01, duration: 0.05, instructions: count),
                    PhaseRecord(name: "untimed", start: 0.06, duration: 0.01)
                ])
            run.instructions = extra + count
            return run
        }
        return LaunchResult(
            date: "2026-11-22T00:00:00Z", manifest: ManifestInfo(name: "m", path: "m.json", sha256: ""),
            host: HostInfo(cpuModel: "cpu", cores: 2, os: "linux", architecture: "x86_64", swiftVersion: "6.3", hostname: "h"), runs: runs)
    }

    @Test func twoPercentMoreWorkIsSlowerOnOneRunPerSide() throws {
        let comparison = Comparison(
            baseline: result(drawing: [100_000_000, 100_000_050]),
            candidate: result(drawing: [102_000_000]), metric: .instructions)
        let drawing = try #require(comparison.rows.first { $0.path == "drawing" })
        #expect(drawing.verdict == .slower)
        #expect(drawing.deterministic == true)
        #expect(drawing.metric == .instructions)
        #expect(drawing.baselineMedian == 100_000_025)
        #expect(drawing.candidateMedian == 102_000_000)
        #expect(comparison.regressions.map(\.path) == ["drawing", "Total launch instructions"])
        // A phase without counts is left out, never compared as 0.
        #expect(!comparison.rows.contains { $0.path == "untimed" })
    }

    @Test func halfAPercentIsWithinTheOnePercentThreshold() throws {
        let comparison = Comparison(
            baseline: result(drawing: [100_000_000, 100_000_000]),
            candidate: result(drawing: [100_500_000]), metric: .instructions)
        #expect(comparison.rows.allSatisfy { $0.verdict == .withinNoise })
        #expect(comparison.regressions.isEmpty)
    }

    @Test func countsThatAreNotRepeatableNeedATest() throws {
        // 3% apart within the baseline: no longer deterministic, so one run cannot decide.
        let comparison = Comparison(
            baseline: result(drawing: [100_000_000, 103_000_000]),
            candidate: result(drawing: [106_000_000]), metric: .instructions)
        let drawing = try #require(comparison.rows.first { $0.path == "drawing" })
        #expect(drawing.deterministic == false)
        #expect(drawing.verdict != .slower, "three runs cannot make a significant change")
        let unstable = Comparison.nondeterministicPhases(in: result(drawing: [100_000_000, 103_000_000]))
        #expect(unstable.map(\.path) == ["drawing"])
        #expect(abs((unstable.first?.spread ?? 0) - 0.03 / 1.015) < 1e-9)
    }

    @Test func repeatableMeansWithinATenthOfAPercentOrAThousandInstructions() {
        #expect(Comparison.isDeterministic([1_000_000, 1_000_999]))
        #expect(!Comparison.isDeterministic([1_000_000, 1_001_001 + 1000]))
        #expect(Comparison.isDeterministic([24_000, 24_900]), "small phases move by a few hundred instructions")
        #expect(!Comparison.isDeterministic([]))
    }

    @Test func timeComparisonsIgnoreCounts() throws {
        let comparison = Comparison(baseline: result(drawing: [100, 100]), candidate: result(drawing: [900]))
        #expect(comparison.metric == .time)
        #expect(comparison.rows.contains { $0.path == "untimed" })
        #expect(comparison.rows.allSatisfy { $0.deterministic == nil })
    }
}

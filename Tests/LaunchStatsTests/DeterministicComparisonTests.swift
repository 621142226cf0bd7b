import Testing
@testable import LaunchStats
import LaunchCore

/// Instruction comparisons on phase tables (as the streaming reader builds them): deterministic
/// counts decided on the medians, others by the rank test with a note.
@Suite struct DeterministicComparisonTests {
    /// A table with one row per (path, counts per run); durations are 1 ms each.
    static func table(_ phases: [(String, [Int])], totals: [Int]? = nil) -> PhaseTable {
        let runs = phases.map(\.1.count).max() ?? 0
        let rows = phases.map { name, counts in
            PhaseTable.Row(
                path: name, name: name, depth: 0, kind: nil, afterLaunch: false,
                durations: [Double](repeating: 0.001, count: runs), instructions: counts.map(Double.init))
        }
        let total = (totals ?? (0..<runs).map { r in phases.reduce(0) { $0 + (r < $1.1.count ? $1.1[r] : 0) } }).map(Double.init)
        return PhaseTable(
            rows: rows, totals: [Double](repeating: 0.01, count: runs), hostTotals: [Double](repeating: 0.01, count: runs),
            instructionTotals: total, deferred: [], runCount: runs)
    }

    @Test func deterministicEqualCountsAreWithinNoise() throws {
        let a = Self.table([("drawing", [118_400_000]), ("Init", [2_000_000])])
        let b = Self.table([("drawing", [118_400_030]), ("Init", [2_000_000])])
        let comparison = Comparison(baseline: a, candidate: b, metric: .instructions)
        #expect(comparison.metric == .instructions)
        #expect(comparison.rows.map(\.verdict) == [.withinNoise, .withinNoise])
        let allDeterministic = comparison.rows.allSatisfy { $0.deterministic == true }
        #expect(allDeterministic)
        #expect(comparison.rows[0].p == nil)
        #expect(comparison.total.path == "Total launch instructions")
        #expect(comparison.total.verdict == .withinNoise)
    }

    @Test func twoPercentMoreInstructionsIsSlowerAtOnePercent() throws {
        let a = Self.table([("drawing", [100_000_000])])
        let b = Self.table([("drawing", [102_000_000])])
        let row = try #require(Comparison(baseline: a, candidate: b, metric: .instructions).rows.first)
        #expect(row.verdict == .slower)
        #expect(row.deterministic == true)
        #expect(row.baselineMedian == 100_000_000)
        #expect(row.candidateMedian == 102_000_000)
        #expect(row.threshold == 1_000_000)
        #expect(abs((row.changePercent ?? 0) - 2) < 1e-9)
        // Half a percent is under the threshold; the same change in time would be judged by the test.
        let small = Self.table([("drawing", [100_500_000])])
        #expect(Comparison(baseline: a, candidate: small, metric: .instructions).rows[0].verdict == .withinNoise)
        #expect(Comparison(baseline: a, candidate: b, metric: .instructions).regressions.map(\.path).contains("drawing"))
    }

    @Test func countsThatVaryFallBackToTheRankTest() throws {
        // ±2% from run to run: more than 0.1%, so ten runs per side go through the test.
        let noisy = (0..<10).map { 100_000_000 + ($0 % 5 - 2) * 2_000_000 }
        let a = Self.table([("threads", noisy)])
        let b = Self.table([("threads", noisy.map { $0 + 300_000 })])
        let row = try #require(Comparison(baseline: a, candidate: b, metric: .instructions).rows.first)
        #expect(row.deterministic == false)
        #expect(row.p != nil)
        #expect(row.note?.contains("not deterministic") == true)
        #expect(row.verdict != .slower)
    }

    @Test func phasesWithoutCountsAreSkippedNotZero() throws {
        let a = Self.table([("drawing", [100]), ("untimed", [])])
        var b = Self.table([("drawing", [100]), ("untimed", []), ("new", [5])])
        #expect(Comparison(baseline: a, candidate: b, metric: .instructions).rows.map(\.path) == ["drawing", "new"])
        b.instructionTotals = []
        let total = Comparison(baseline: a, candidate: b, metric: .instructions).total
        #expect(total.candidateMedian == nil && total.verdict == .removed)
        // Time still compares every phase.
        #expect(Comparison(baseline: a, candidate: b).rows.count == 3)
    }

    @Test func determinismReportNamesTheUnstablePhasesOfATable() throws {
        let table = Self.table(
            [("steady", [1_000_000, 1_000_050]), ("racy", [1_000_000, 1_020_000]), ("uncounted", [])],
            totals: [5_000_000, 5_000_001])
        let unstable = Comparison.nondeterministicPhases(in: table)
        #expect(unstable.map(\.path) == ["racy"])
        #expect(abs((unstable.first?.spread ?? 0) - 20_000 / 1_010_000.0) < 1e-12)
    }

    @Test func phaseTableCarriesInstructionCounts() {
        let result = LaunchResult(
            date: "d", manifest: ManifestInfo(name: "m", path: "m", sha256: ""), host: Fixed.host,
            runs: [
                {
                    var run = RunRecord(
                        total: 1,
                        phases: [
                            PhaseRecord(name: "a", start: 0, duration: 1, instructions: 10),
                            PhaseRecord(name: "b", start: 0, duration: 1)
                        ]);
                    run.instructions = 12; return run
                }()
            ])
        let table = PhaseTable(result)
        #expect(table.rows.map(\.instructions) == [[10], []])
        #expect(table.instructionTotals == [12])
        #expect(table.runCount == 1)
    }
}

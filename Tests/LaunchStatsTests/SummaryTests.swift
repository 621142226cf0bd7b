import Testing
@testable import LaunchStats
import LaunchCore

@Suite struct SummaryTests {
    @Test func handComputedValues() throws {
        // Sorted: 1 2 3 4 100. Mean 22, median 3, deviations from median 2 1 0 1 97 -> MAD 1.
        let s = try #require(Summary([3, 1, 100, 2, 4]))
        #expect(s.count == 5)
        #expect(s.min == 1)
        #expect(s.max == 100)
        #expect(s.mean == 22)
        #expect(s.median == 3)
        #expect(s.mad == 1)
        // p90: position 0.9 * 4 = 3.6 -> 4 + 0.6 * (100 - 4) = 61.6
        #expect(abs(s.p90 - 61.6) < 1e-12)
        // Sample variance: (441 + 400 + 361 + 324 + 6084) / 4 = 1902.5
        #expect(abs(s.standardDeviation - 1902.5.squareRoot()) < 1e-12)
    }

    @Test func evenCountMedianInterpolates() throws {
        let s = try #require(Summary([4, 1, 3, 2]))
        #expect(s.median == 2.5)
        #expect(s.mad == 1)
    }

    @Test func singleValueHasNoSpread() throws {
        let s = try #require(Summary([0.5]))
        #expect(s.standardDeviation == 0)
        #expect(s.mad == 0)
        #expect(s.p90 == 0.5)
        #expect(Summary([]) == nil)
    }

    @Test func phaseTableLinesUpPhasesAcrossRunsByPath() {
        func run(_ i: Int, _ d: Double) -> RunRecord {
            RunRecord(
                index: i, total: 1 + d,
                phases: [
                    PhaseRecord(name: "drawing", start: 0, duration: 1),
                    PhaseRecord(name: "keys", start: 0, duration: d, depth: 1, parent: 0)
                ])
        }
        let result = LaunchResult(
            date: "", manifest: ManifestInfo(name: "m", path: "m", sha256: ""),
            host: HostInfo(cpuModel: "", cores: 1, os: "", architecture: "", swiftVersion: "", hostname: ""),
            runs: [run(1, 0.25), run(2, 0.5)])
        let table = PhaseTable(result)
        #expect(table.rows.map(\.path) == ["drawing", "drawing/keys"])
        #expect(table.rows[1].durations == [0.25, 0.5])
        #expect(table.totals == [1.25, 1.5])
    }
}

@Suite struct OutlierTests {
    @Test func aSlowRunStandsOut() {
        // Sorted 0.9 1 1 1.1 5: median 1; deviations 0 0 0.1 0.1 4 -> MAD 0.1; M(5) = 0.6745 · 4 / 0.1 ≈ 27.
        let values = [1.0, 1.1, 0.9, 1.0, 5.0]
        #expect(Outliers.indexes(values) == [4])
        let z = Outliers.modifiedZScores(values)
        #expect(abs(z[4] - 0.6745 * 4 / 0.1) < 1e-9)
        #expect(abs(z[1] - 0.6745) < 1e-9)
    }

    @Test func noSpreadMeansNoOutliers() {
        #expect(Outliers.indexes([2, 2, 2, 2]).isEmpty)
        // MAD 0 but one value differs: the mean absolute deviation stands in.
        #expect(Outliers.indexes([2, 2, 2, 2, 2, 2, 2, 9]) == [7])
    }
}

import Testing
import LaunchStats
import LaunchCore

/// ``PhaseTable`` rows found by parent row and name: the same rows as path strings gave.
@Suite struct PhaseTableRowKeyTests {
    func result(_ runs: [[PhaseRecord]]) -> LaunchResult {
        LaunchResult(
            date: "", manifest: ManifestInfo(name: "x", path: "x", sha256: ""),
            host: HostInfo(cpuModel: "", cores: 1, os: "", architecture: "", swiftVersion: "", hostname: ""),
            runs: runs.enumerated().map { RunRecord(index: $0.offset + 1, total: 1, phases: $0.element) })
    }

    @Test func phasesThatReadTheSamePathShareARow() {
        // `a/b` at the top and `b` under `a` read alike: one row, as the streaming reader makes it.
        let run = [
            PhaseRecord(name: "a", start: 0, duration: 1), PhaseRecord(name: "b", start: 0, duration: 0.5, depth: 1, parent: 0),
            PhaseRecord(name: "a/b", start: 0, duration: 0.25)
        ]
        let table = PhaseTable(result([run]))
        #expect(table.rows.map(\.path) == ["a", "a/b"])
        #expect(table.rows[1].durations == [0.5, 0.25])
    }

    @Test func rowsAreSharedAcrossRunsAndKeptApartByParent() {
        let run = [
            PhaseRecord(name: "x", start: 0, duration: 1), PhaseRecord(name: "y", start: 0, duration: 1, depth: 1, parent: 0),
            PhaseRecord(name: "z", start: 0, duration: 1), PhaseRecord(name: "y", start: 0, duration: 2, depth: 1, parent: 2)
        ]
        let table = PhaseTable(result([run, run]))
        #expect(table.rows.map(\.path) == ["x", "x/y", "z", "z/y"])
        #expect(table.rows.map(\.durations) == [[1, 1], [1, 1], [1, 1], [2, 2]])
    }
}

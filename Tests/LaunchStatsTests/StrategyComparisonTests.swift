import Testing
import LaunchCore
@testable import LaunchStats

/// `launchprof compare`'s rows: each measure read from the runs, decided as check decides, in the
/// words of someone choosing a strategy.
@Suite struct StrategyComparisonTests {
    func result(_ runs: [RunRecord]) -> LaunchResult {
        LaunchResult(
            date: "2026-11-23T00:00:00Z", manifest: ManifestInfo(name: "m", path: "m.json", sha256: ""),
            host: HostInfo(cpuModel: "cpu", cores: 2, os: "Linux", architecture: "x86_64", swiftVersion: "6.3", hostname: "h"), runs: runs)
    }

    /// Ten runs whose first frame is at `firstFrame` (± a little) and whose counters are `counters`.
    func runs(firstFrame: Double, counters: [String: Int] = [:]) -> LaunchResult {
        result(
            (0..<10).map { i in
                var run = RunRecord(
                    index: i + 1, total: firstFrame + 0.1, phases: [PhaseRecord(name: "Init", kind: .cpu, start: 0, duration: firstFrame + 0.1)])
                run.marks = [MarkRecord(name: "first frame", time: firstFrame * (1 + Double(i % 3) * 0.001))]
                run.counters = counters.map { CounterRecord(name: $0.key, value: $0.value) }
                return run
            })
    }

    @Test func aMuchEarlierFirstFrameIsBetterAndALaterOneWorse() throws {
        let slow = runs(firstFrame: 0.5), quick = runs(firstFrame: 0.1)
        let better = try #require(
            StrategyComparisonRow.compare(
                strategy: "snapshotFirst", tier: "host", measure: .firstFrame, off: slow, on: quick, firstUse: nil, thresholds: Thresholds()))
        #expect(better.verdict == .better)
        #expect(better.off == 0.5 * 1.001 && better.on == 0.1 * 1.001)
        #expect(
            StrategyComparisonRow.compare(strategy: "s", tier: "host", measure: .firstFrame, off: quick, on: slow, firstUse: nil, thresholds: Thresholds())?
                .verdict == .worse)
        #expect(
            StrategyComparisonRow.compare(strategy: "s", tier: "host", measure: .firstFrame, off: quick, on: quick, firstUse: nil, thresholds: Thresholds())?
                .verdict == .noChange)
    }

    @Test func countsAreDecidedByTheirMediansWhenTheyRepeat() throws {
        let many = runs(firstFrame: 0.1, counters: ["layout passes": 40]), few = runs(firstFrame: 0.1, counters: ["layout passes": 2])
        #expect(
            StrategyComparisonRow.compare(strategy: "c", tier: "host", measure: .layoutPasses, off: many, on: few, firstUse: nil, thresholds: Thresholds())?
                .verdict == .better)
        #expect(
            StrategyComparisonRow.compare(strategy: "c", tier: "host", measure: .layoutPasses, off: few, on: few, firstUse: nil, thresholds: Thresholds())?
                .verdict == .noChange)
        // Counted on one side only: not comparable, never a 0 on the other.
        let row = try #require(
            StrategyComparisonRow.compare(
                strategy: "c", tier: "host", measure: .layoutPasses, off: runs(firstFrame: 0.1), on: few, firstUse: nil, thresholds: Thresholds()))
        #expect(row.verdict == .notComparable && row.off == nil && row.on == 2)
    }

    @Test func aMeasureNoRunHasIsLeftOut() {
        let plain = runs(firstFrame: 0.1)
        for measure in [StrategyMeasure.layoutPasses, .tapsLost, .dirtyMemory, .backgroundTime, .returnToForeground, .framesLate] {
            #expect(
                StrategyComparisonRow.compare(strategy: "s", tier: "host", measure: measure, off: plain, on: plain, firstUse: nil, thresholds: Thresholds())
                    == nil)
        }
        #expect(StrategyMeasure.firstUse.samples(plain, firstUse: nil) == nil)
    }

    @Test func dirtyMemoryWithinFivePercentIsNoChange() {
        let a = runs(firstFrame: 0.1, counters: ["dirty bytes after background": 20_000_000])
        let b = runs(firstFrame: 0.1, counters: ["dirty bytes after background": 20_500_000])
        let c = runs(firstFrame: 0.1, counters: ["dirty bytes after background": 10_000_000])
        #expect(
            StrategyComparisonRow.compare(strategy: "r", tier: "host", measure: .dirtyMemory, off: a, on: b, firstUse: nil, thresholds: Thresholds())?.verdict
                == .noChange)
        #expect(
            StrategyComparisonRow.compare(strategy: "r", tier: "host", measure: .dirtyMemory, off: a, on: c, firstUse: nil, thresholds: Thresholds())?.verdict
                == .better)
    }
}

import LaunchCore
import LaunchStats
import Testing

@testable import LaunchChangePoints

/// Change points on series with known steps, none, or too few points.
struct ChangePointDetectorTests {
    static let key = SeriesKey(environment: "env", tier: "host", metric: .time, target: SeriesTarget(kind: .manifest, name: "default"), phase: "layout")

    /// `count` commits of 10 runs each around `level(commit)` seconds, with log-normal noise of `spread`.
    static func timeSeries(count: Int, seed: UInt64, spread: Double = 0.03, level: (Int) -> Double) throws -> ChangePointSeries {
        var generator = SplitMix64(seed: seed)
        let points = try (0..<count).map { commit in
            let runs = (0..<10).map { _ in level(commit) * (1 + spread * normal(&generator)) }
            return try MeasuredPoint(commit: "c\(commit)", measured: runs.map { max($0, 0) })
        }
        return try ChangePointSeries(key: key, points: points)
    }

    /// A standard normal draw (Box–Muller).
    static func normal(_ generator: inout SplitMix64) -> Double {
        let u = max(Double.random(in: 0..<1, using: &generator), 1e-300), v = Double.random(in: 0..<1, using: &generator)
        return (-2 * _log(u)).squareRoot() * _cos(2 * .pi * v)
    }

    static func counts(_ values: [UInt64]) throws -> ChangePointSeries {
        let points = try values.enumerated().map { try MeasuredPoint(commit: "c\($0.offset)", counts: [$0.element]) }
        return try ChangePointSeries(
            key: SeriesKey(environment: "env", tier: "host", metric: .instructions, target: SeriesTarget(kind: .manifest, name: "default"), phase: "layout"),
            points: points)
    }

    @Test func plantedStepsAreFoundAtTheirCommits() throws {
        // +5% at commit 120, −4% at 300: found there (±1), each with its medians and a small p-value.
        let series = try Self.timeSeries(count: 400, seed: 7) { $0 < 120 ? 0.010 : $0 < 300 ? 0.0105 : 0.01008 }
        let found = try ChangePointDetector().detect(series)
        #expect(found.changePoints.count == 2)
        let first = try #require(found.changePoints.first), second = try #require(found.changePoints.last)
        #expect(abs(first.index - 120) <= 1 && abs(second.index - 300) <= 1)
        #expect(first.commit == "c\(first.index)" && first.previousCommit == "c\(first.index - 1)")
        #expect(abs((first.relativeChange ?? 0) - 0.05) < 0.01)
        #expect(abs((second.relativeChange ?? 0) + 0.04) < 0.01)
        #expect(abs(first.before.median - 0.010) < 0.0002 && abs(first.after.median - 0.0105) < 0.0002)
        #expect(first.pValue < 0.001 && second.pValue < 0.001)
        #expect(first.before.points == first.index && second.after.points == 400 - second.index)
        #expect(!found.exact)
    }

    @Test func aStepNearTheEndNeedsTheMinimumSegment() throws {
        var options = DetectionOptions()
        options.minimumSegmentLength = 5
        let detector = try ChangePointDetector(options: options)
        let late = try Self.timeSeries(count: 100, seed: 3, spread: 0.01) { $0 < 95 ? 0.010 : 0.012 }
        #expect(detector.detect(late).changePoints.map(\.index) == [95])
        let tooLate = try Self.timeSeries(count: 100, seed: 3, spread: 0.01) { $0 < 97 ? 0.010 : 0.012 }
        #expect(detector.detect(tooLate).changePoints.isEmpty)
    }

    @Test func noisySeriesWithoutStepsHaveNone() throws {
        var falsePositives = 0
        for seed in UInt64(1)...20 {
            let series = try Self.timeSeries(count: 300, seed: seed, spread: 0.10) { _ in 0.004 }
            falsePositives += try ChangePointDetector().detect(series).changePoints.count
        }
        #expect(falsePositives == 0)
    }

    @Test func constantSeriesHaveNone() throws {
        let constant = try ChangePointSeries(key: Self.key, points: (0..<200).map { try MeasuredPoint(commit: "c\($0)", measured: [0.002, 0.002]) })
        #expect(try ChangePointDetector().detect(constant).changePoints.isEmpty)
        let instructions = try ChangePointDetector().detect(Self.counts(Array(repeating: 1_234_567, count: 200)))
        #expect(instructions.changePoints.isEmpty && instructions.exact)
    }

    @Test func aStepBelowTheMinimumChangeIsNotReported() throws {
        // A clear 0.5% step (almost no noise): significant, but under the default 1% minimum.
        let series = try Self.timeSeries(count: 200, seed: 5, spread: 0.001) { $0 < 100 ? 0.010 : 0.01005 }
        #expect(try ChangePointDetector().detect(series).changePoints.isEmpty)
        var options = DetectionOptions()
        options.minimumRelativeChange = 0.001
        #expect(try ChangePointDetector(options: options).detect(series).changePoints.map(\.index) == [100])
    }

    @Test func oneInstructionIsAStep() throws {
        var values = [UInt64](repeating: 5_000_000, count: 50)
        for i in 20..<50 { values[i] += 1 }
        values[40] += 2  // a one-commit spike: two steps, up and back down
        let found = try ChangePointDetector().detect(Self.counts(values))
        #expect(found.exact)
        #expect(found.changePoints.map(\.index) == [20, 40, 41])
        let step = try #require(found.changePoints.first)
        #expect(step.before.median == 5_000_000 && step.after.median == 5_000_001 && step.pValue == 0)
        #expect(step.before.points == 20 && step.after.points == 20)
    }

    @Test func nondeterministicCountsAreTestedStatistically() throws {
        // Counts whose runs disagree are noise around a level: no step is certain, none is reported.
        var generator = SplitMix64(seed: 11)
        let points = try (0..<100).map { commit in
            try MeasuredPoint(commit: "c\(commit)", counts: (0..<3).map { _ in 1_000_000 + UInt64.random(in: 0..<2000, using: &generator) })
        }
        let found = try ChangePointDetector().detect(ChangePointSeries(key: Self.key, points: points))
        #expect(!found.exact && found.changePoints.isEmpty)
    }

    @Test func theSameInputGivesTheSameOutput() throws {
        let series = try Self.timeSeries(count: 600, seed: 9, spread: 0.05) { $0 < 200 ? 0.01 : $0 < 410 ? 0.0108 : 0.0103 }
        let detector = try ChangePointDetector()
        let first = detector.detect([series, series]), second = detector.detect([series, series])
        #expect(first == second && first[0] == first[1])
        #expect(!first[0].changePoints.isEmpty)
    }

    @Test func tinySeriesHaveNoChangePoints() throws {
        let detector = try ChangePointDetector()
        #expect(detector.detect(try ChangePointSeries(key: Self.key, points: [])).changePoints.isEmpty)
        for count in 1...9 {
            let series = try Self.timeSeries(count: count, seed: 1, spread: 0.001) { $0 < count / 2 ? 0.01 : 0.02 }
            #expect(detector.detect(series).changePoints.isEmpty, "\(count) points")
        }
        // Exact counts: two points are enough for a step.
        #expect(detector.detect(try Self.counts([10, 11])).changePoints.map(\.index) == [1])
        #expect(detector.detect(try Self.counts([10])).changePoints.isEmpty)
    }

    @Test func nonFiniteAndNegativeTimesAreRefused() {
        for bad in [Double.nan, .infinity, -.infinity, -0.001] {
            let error = #expect(throws: ChangePointError.self) { try MeasuredPoint(commit: "abc", measured: [0.01, bad]) }
            guard case .invalidValue(let commit, let run, _) = error else {
                Issue.record("\(bad) gave \(String(describing: error))")
                continue
            }
            #expect(commit == "abc" && run == 1)
        }
        #expect(throws: ChangePointError.noRuns(commit: "abc")) { try MeasuredPoint(commit: "abc", measured: []) }
        #expect(throws: ChangePointError.noRuns(commit: "abc")) { try MeasuredPoint(commit: "abc", counts: []) }
    }

    @Test func mixedOrRepeatedPointsAreRefused() throws {
        let time = try MeasuredPoint(commit: "a", measured: [0.01]), count = try MeasuredPoint(commit: "b", counts: [10])
        #expect(throws: ChangePointError.mixedKinds(commit: "b")) { try ChangePointSeries(key: Self.key, points: [time, count]) }
        #expect(throws: ChangePointError.duplicateCommit("a")) { try ChangePointSeries(key: Self.key, points: [time, time]) }
    }

    @Test func optionsOutOfRangeAreRefused() {
        var options = DetectionOptions()
        options.maximumPValue = 0.9
        #expect(throws: ChangePointError.self) { try ChangePointDetector(options: options) }
        options = DetectionOptions()
        options.minimumSegmentLength = 1
        #expect(throws: ChangePointError.self) { try ChangePointDetector(options: options) }
        options = DetectionOptions()
        options.minimumSegmentLength = 1001
        #expect(throws: ChangePointError.optionOutOfRange(option: "minimum segment length", value: 1001, range: 2...1000)) {
            try ChangePointDetector(options: options)
        }
        options = DetectionOptions()
        options.minimumRelativeChange = -0.1
        #expect(throws: ChangePointError.self) { try ChangePointDetector(options: options) }
    }
}

/// A slow drift over the newest commits, without a step.
struct DriftTests {
    @Test func aSteadyRiseIsADrift() throws {
        // 200 flat commits, then 30 rising 0.2% each (about +6% over the window), 1% noise.
        let series = try ChangePointDetectorTests.timeSeries(count: 230, seed: 4, spread: 0.01) { $0 < 200 ? 0.010 : 0.010 * (1 + 0.002 * Double($0 - 199)) }
        let drift = try #require(try ChangePointDetector().drift(series, overLast: 30))
        #expect(drift.firstIndex == 200 && drift.commits == 30)
        #expect(abs(drift.relativeChange - 0.058) < 0.015)
        #expect(drift.pValue < 1e-6)
    }

    @Test func flatNoiseAndStepsAreNotDrifts() throws {
        let detector = try ChangePointDetector()
        let flat = try ChangePointDetectorTests.timeSeries(count: 230, seed: 8, spread: 0.05) { _ in 0.010 }
        #expect(detector.drift(flat, overLast: 30) == nil)
        // A clear step inside the window is a change point, not a drift (a step fits it better than a line).
        let stepped = try ChangePointDetectorTests.timeSeries(count: 230, seed: 8, spread: 0.005) { $0 < 215 ? 0.010 : 0.011 }
        #expect(detector.detect(stepped).changePoints.map(\.index) == [215])
        #expect(detector.drift(stepped, overLast: 30) == nil)
        // Too short a series, or too short a window.
        #expect(detector.drift(flat, overLast: 5) == nil)
        #expect(detector.drift(try ChangePointDetectorTests.timeSeries(count: 20, seed: 1) { _ in 0.01 }, overLast: 30) == nil)
    }

    @Test func mannKendallMatchesItsDefinition() {
        // 1…10 strictly rising: S = 45, var = 10·9·25/18 = 125, z = 44/√125 = 3.9355, p = 8.30e-5.
        let p = ChangePointDetector.mannKendallP((1...10).map(Double.init))
        #expect(abs(p - 8.30e-5) < 0.01e-5)
        #expect(ChangePointDetector.mannKendallP([3, 3, 3, 3]) == 1)
        #expect(ChangePointDetector.theilSenSlope([0, 2, 4, 6, 100]) == 2)
    }
}

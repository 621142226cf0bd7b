#if canImport(Glibc)
import Glibc
#endif

/// A slow drift over a series' newest commits with no single step to blame: what `check --store` can
/// add ("this phase has been drifting: +4% over the last 30 commits, no single step").
public struct Drift: Equatable, Sendable {
    /// The index of the window's first point.
    public var firstIndex: Int
    /// How many commits the window holds.
    public var commits: Int
    /// The Theil–Sen line's rise over the window, relative to its level at the window's start.
    public var relativeChange: Double
    /// The Mann–Kendall trend test's two-sided p-value (normal approximation, tie-corrected).
    public var pValue: Double
}

extension ChangePointDetector {
    /// The drift over the newest `commits` points (10 to 1,000) of a wall-time series: reported when the
    /// Mann–Kendall test passes the maximum p-value, the line rises or falls by at least the minimum
    /// relative change, and the line fits the window better than any single step does (least absolute
    /// deviations; a step is `detect`'s to report). `nil` otherwise, and for exact series (their changes
    /// are steps) and windows the series cannot fill.
    public func drift(_ series: ChangePointSeries, overLast commits: Int = 30) -> Drift? {
        guard !series.isExact, (10...1_000).contains(commits), series.points.count >= commits else { return nil }
        let first = series.points.count - commits
        let window = Array(series.values[first...])
        let slope = Self.theilSenSlope(window)
        let level = MeasuredPoint.median(window.enumerated().map { $0.element - slope * Double($0.offset) }.sorted())
        guard level > 0 else { return nil }
        let lineDeviation = window.enumerated().reduce(0) { $0 + abs($1.element - level - slope * Double($1.offset)) }
        guard lineDeviation < Self.bestStepDeviation(window) else { return nil }
        let change = slope * Double(commits - 1) / level
        let p = Self.mannKendallP(window)
        guard p <= options.maximumPValue, abs(change) >= options.minimumRelativeChange else { return nil }
        return Drift(firstIndex: first, commits: commits, relativeChange: change, pValue: p)
    }

    /// The least total absolute deviation of `values` from two levels (each side's median), over every
    /// split with 2 points or more a side.
    static func bestStepDeviation(_ values: [Double]) -> Double {
        func deviation(_ side: ArraySlice<Double>) -> Double {
            let median = MeasuredPoint.median(side.sorted())
            return side.reduce(0) { $0 + abs($1 - median) }
        }
        guard values.count >= 4 else { return .infinity }
        return (2...(values.count - 2)).map { deviation(values[..<$0]) + deviation(values[$0...]) }.min() ?? .infinity
    }

    /// The median of the slopes between every two points.
    static func theilSenSlope(_ values: [Double]) -> Double {
        var slopes: [Double] = []
        slopes.reserveCapacity(values.count * (values.count - 1) / 2)
        for i in values.indices {
            for j in (i + 1)..<values.count where j < values.count { slopes.append((values[j] - values[i]) / Double(j - i)) }
        }
        return MeasuredPoint.median(slopes.sorted())
    }

    /// Mann–Kendall: S = Σ sign(x_j − x_i) over i < j against its variance under no trend (ties
    /// corrected), with a continuity correction.
    static func mannKendallP(_ values: [Double]) -> Double {
        let n = Double(values.count)
        var s = 0.0
        for i in values.indices {
            for j in (i + 1)..<values.count where j < values.count { s += values[j] > values[i] ? 1 : values[j] < values[i] ? -1 : 0 }
        }
        var ties = 0.0
        var sorted = values.sorted()[...]
        while let value = sorted.first {
            let t = Double(sorted.prefix { $0 == value }.count)
            ties += t * (t - 1) * (2 * t + 5)
            sorted = sorted.dropFirst(Int(t))
        }
        let variance = (n * (n - 1) * (2 * n + 5) - ties) / 18
        guard variance > 0, s != 0 else { return 1 }
        let z = (abs(s) - 1) / variance.squareRoot()
        return min(1, erfc(z / 2.0.squareRoot()))
    }
}

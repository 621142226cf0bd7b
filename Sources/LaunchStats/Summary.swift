/// Descriptive statistics of one measured quantity over several runs.
public struct Summary: Equatable, Sendable {
    public var count: Int
    public var min: Double
    public var max: Double
    public var mean: Double
    public var median: Double
    /// Sample standard deviation (n − 1); 0 for a single value.
    public var standardDeviation: Double
    /// Median absolute deviation from the median (unscaled).
    public var mad: Double
    /// 90th percentile (linear interpolation between closest ranks).
    public var p90: Double

    /// Summarises `values`; `nil` when there are none.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        count = sorted.count
        min = sorted[0]
        max = sorted[sorted.count - 1]
        mean = sorted.reduce(0, +) / Double(sorted.count)
        median = Self.quantile(sorted, 0.5)
        p90 = Self.quantile(sorted, 0.9)
        let m = mean
        standardDeviation =
            sorted.count > 1
            ? (sorted.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(sorted.count - 1)).squareRoot()
            : 0
        let med = median
        mad = Self.quantile(sorted.map { abs($0 - med) }.sorted(), 0.5)
    }

    /// The `q` quantile (0…1, clamped; NaN gives NaN) of sorted values, interpolating linearly
    /// between closest ranks.
    public static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty, !q.isNaN else { return .nan }
        let position = Swift.min(Swift.max(q, 0), 1) * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = Int(position.rounded(.up))
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}

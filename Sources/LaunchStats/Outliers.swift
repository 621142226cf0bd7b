/// Outlier detection by the modified z-score (Iglewicz and Hoaglin, 1993):
/// `M = 0.6745 · (x − median) / MAD`, and a value is an outlier when `|M| > 3.5`.
///
/// The median and MAD are robust: one slow run cannot hide itself by inflating the spread, as it
/// would with the mean and standard deviation. When the MAD is 0 (most values equal), the mean
/// absolute deviation scaled by 1.253314 stands in for it.
public enum Outliers {
    /// The threshold on |M| above which a value is an outlier.
    public static let threshold = 3.5

    /// The modified z-score of each value (0 for all when there is no spread at all).
    public static func modifiedZScores(_ values: [Double]) -> [Double] {
        guard let summary = Summary(values) else { return [] }
        var scale = summary.mad / 0.6745
        if scale == 0 {
            let meanAbsolute = values.reduce(0) { $0 + abs($1 - summary.median) } / Double(values.count)
            scale = meanAbsolute * 1.253314
        }
        guard scale > 0 else { return values.map { _ in 0 } }
        return values.map { ($0 - summary.median) / scale }
    }

    /// Indexes of the outliers in `values`.
    public static func indexes(_ values: [Double]) -> [Int] {
        modifiedZScores(values).enumerated().filter { abs($0.element) > threshold }.map(\.offset)
    }
}

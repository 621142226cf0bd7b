/// The points on one side of a change point, up to the neighbouring change point or the series' end.
public struct Segment: Equatable, Sendable {
    /// The median of the segment's point values (each point's value is the median of its runs).
    public var median: Double
    /// How many points (commits) the segment holds.
    public var points: Int
}

/// A step in a series: where it begins, the segments either side, and how sure it is.
public struct ChangePoint: Equatable, Sendable {
    /// The index of the first point after the step (the commit that made it).
    public var index: Int
    /// That point's commit.
    public var commit: String
    /// The last commit before the step.
    public var previousCommit: String
    public var before: Segment
    public var after: Segment
    /// after.median / before.median - 1; `nil` when the median before is 0.
    public var relativeChange: Double?
    /// The two-sided p-value of the two segments' Mann–Whitney U test, Bonferroni-corrected for the split positions; 0 for exact counts, where the
    /// step is certain.
    public var pValue: Double

    /// after / before - 1, `nil` when `before` is 0.
    public static func relativeChange(before: Double, after: Double) -> Double? {
        before == 0 ? nil : after / before - 1
    }
}

/// The change points found in one series.
public struct SeriesChangePoints: Equatable, Sendable {
    public var key: SeriesKey
    /// How many points the series holds.
    public var pointCount: Int
    /// `true` when the series held deterministic exact counts and every step was reported.
    public var exact: Bool
    /// Oldest first.
    public var changePoints: [ChangePoint]
}

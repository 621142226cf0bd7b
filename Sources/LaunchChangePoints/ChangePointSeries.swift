/// One quantity's points in commit order (oldest first), all of one kind.
public struct ChangePointSeries: Equatable, Sendable {
    public let key: SeriesKey
    public let points: [MeasuredPoint]

    /// Refuses a series that mixes wall times with exact counts or names a commit twice.
    public init(key: SeriesKey, points: [MeasuredPoint]) throws(ChangePointError) {
        if let first = points.first, let other = points.first(where: { $0.isExact != first.isExact }) {
            throw .mixedKinds(commit: other.commit)
        }
        var seen = Set<String>()
        for point in points where !seen.insert(point.commit).inserted {
            throw .duplicateCommit(point.commit)
        }
        self.key = key
        self.points = points
    }

    /// `true` when every point holds exact counts whose runs agree: detection is then exact.
    public var isExact: Bool {
        !points.isEmpty && points.allSatisfy(\.isDeterministic)
    }

    /// Each point's value (the median of its runs), oldest first.
    public var values: [Double] { points.map(\.value) }
}

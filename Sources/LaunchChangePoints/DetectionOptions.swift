/// How change points are told from noise. Every number has a documented range, checked by
/// ``validated()`` before any work (docs/history.md).
public struct DetectionOptions: Equatable, Sendable {
    /// The largest p-value a change point may have (the two segments' two-sided Mann–Whitney U test,
    /// multiplied by the split positions the search chose from): 1e-12 to 0.5, default 0.001 (Otava's).
    public var maximumPValue: Double = 0.001
    /// The fewest points on each side of a change point: 2 to 1,000, default 5. A step in the
    /// newest `minimumSegmentLength - 1` commits is not reported yet.
    public var minimumSegmentLength: Int = 5
    /// The smallest |after / before - 1| of the segments' medians a wall-time change point needs:
    /// 0 to 10, default 0.01 (1%). Exact counts ignore it: one instruction is a step.
    public var minimumRelativeChange: Double = 0.01

    public init() {}

    public static let pValueRange: ClosedRange<Double> = 1e-12...0.5
    public static let segmentRange: ClosedRange<Double> = 2...1000
    public static let relativeChangeRange: ClosedRange<Double> = 0...10

    /// These options, or the first one out of its range.
    public func validated() throws(ChangePointError) -> DetectionOptions {
        try Self.check("maximum p-value", maximumPValue, Self.pValueRange)
        try Self.check("minimum segment length", Double(minimumSegmentLength), Self.segmentRange)
        try Self.check("minimum relative change", minimumRelativeChange, Self.relativeChangeRange)
        return self
    }

    static func check(_ option: String, _ value: Double, _ range: ClosedRange<Double>) throws(ChangePointError) {
        guard range.contains(value) else { throw .optionOutOfRange(option: option, value: value, range: range) }
    }
}

import LaunchStats

/// When a commit is bad by instruction counts: its median count is above the good commit's largest
/// count by more than the good commit's own spread (its largest count less its smallest).
///
/// Counts that repeat exactly (the built-in app, and most programs, under Callgrind with
/// `SWIFT_DETERMINISTIC_HASHING=1` and the same work tree path every step) have no spread: then one
/// instruction more than the good commit is bad, exactly. A program whose counts vary between its
/// own runs needs an increase beyond that variation.
public struct InstructionRule: Sendable, Equatable {
    /// The good commit's counts, one per run.
    public let good: [Double]

    /// `nil` when `good` is empty (a count is never taken as 0).
    public init?(good: [Double]) {
        guard !good.isEmpty else { return nil }
        self.good = good
    }

    /// The count above which a commit is bad.
    public var limit: Double {
        let largest = good.max()!, smallest = good.min()!
        return largest + (largest - smallest)
    }

    /// Bad when the median of `counts` is above ``limit``; `nil` when `counts` is empty.
    public func verdict(_ counts: [Double]) -> StepVerdict? {
        guard let median = Self.median(counts) else { return nil }
        return median > limit ? .bad : .good
    }

    /// The median of `values` (``Summary``'s), `nil` for none.
    public static func median(_ values: [Double]) -> Double? {
        Summary(values)?.median
    }
}

/// One commit's measurements of one quantity: several measured runs (wall time, memory), or exact counts (instructions).
///
/// Values are checked when the point is made: a wall time is finite and not negative, counts are
/// integers, so NaN and infinities cannot reach the detector.
public struct MeasuredPoint: Equatable, Sendable {
    /// What was measured at this commit.
    public enum Runs: Equatable, Sendable {
        /// Seconds (or bytes) per run: noisy, compared statistically.
        case wallTime([Double])
        /// Counts per run (Callgrind's instructions): exact, a step of one is a step.
        case exact([UInt64])
    }

    /// The commit (a hash, or any name the caller orders the series by).
    public let commit: String
    public let runs: Runs
    /// The point's value in the series: the median of its runs.
    public let value: Double

    /// A commit's measured runs (seconds, or bytes of memory); refused when empty, NaN, infinite or negative.
    public init(commit: String, measured: [Double]) throws(ChangePointError) {
        guard !measured.isEmpty else { throw .noRuns(commit: commit) }
        for (index, value) in measured.enumerated() where !value.isFinite || value < 0 {
            throw .invalidValue(commit: commit, run: index, value: value)
        }
        self.commit = commit
        runs = .wallTime(measured)
        value = Self.median(measured.sorted())
    }

    /// A commit's exact counts (usually one; several when the runs were repeated); refused when empty.
    public init(commit: String, counts: [UInt64]) throws(ChangePointError) {
        guard !counts.isEmpty else { throw .noRuns(commit: commit) }
        self.commit = commit
        runs = .exact(counts)
        value = Self.median(counts.sorted().map { Double($0) })
    }

    /// How many runs the point holds.
    public var runCount: Int {
        switch runs {
        case .wallTime(let seconds): return seconds.count
        case .exact(let counts): return counts.count
        }
    }

    /// `true` for exact counts whose runs all agree (a deterministic phase).
    public var isDeterministic: Bool {
        guard case .exact(let counts) = runs else { return false }
        return counts.allSatisfy { $0 == counts[0] }
    }

    /// The first count of an exact point (its count, when deterministic); `nil` for wall times.
    var firstCount: UInt64? {
        if case .exact(let counts) = runs { return counts[0] }
        return nil
    }

    var isExact: Bool {
        if case .exact = runs { return true }
        return false
    }

    static func median(_ sorted: [Double]) -> Double {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

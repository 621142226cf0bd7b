/// How big a change must be to count: both more than `percent` of the baseline median and more than
/// `seconds` in absolute terms (so a 50% change of a 0.1 ms phase is not a regression).
public struct Thresholds: Equatable, Sendable {
    /// Relative threshold in percent (default 5).
    public var percent: Double
    /// Absolute threshold in seconds (default 0.002).
    public var seconds: Double
    /// Per-phase relative thresholds in percent, by phase name or path (`drawing/keys`).
    public var perPhase: [String: Double]
    /// Significance level of the test (default 0.01: a no-change phase is called changed 1% of the time).
    public var alpha: Double

    public init(percent: Double = 5, seconds: Double = 0.002, perPhase: [String: Double] = [:], alpha: Double = 0.01) {
        self.percent = percent
        self.seconds = seconds
        self.perPhase = perPhase
        self.alpha = alpha
    }

    /// The smallest change, in seconds, that counts for a phase at `path` with baseline median `baseline`.
    public func threshold(path: String, name: String, baseline: Double) -> Double {
        let relative = perPhase[path] ?? perPhase[name] ?? percent
        return max(baseline * relative / 100, seconds)
    }
}

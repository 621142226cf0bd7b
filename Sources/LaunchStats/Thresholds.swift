import LaunchCore

/// How big a change must be to count, per metric: more than a relative share of the baseline median
/// **and** more than an absolute floor (so a 50% change of a 0.1 ms phase is not a regression).
public struct Thresholds: Equatable, Sendable {
    /// One metric's threshold.
    public struct Limit: Equatable, Sendable {
        /// Relative threshold in percent of the baseline median.
        public var percent: Double
        /// Absolute floor in the metric's unit (seconds for time, instructions for instructions).
        public var floor: Double
    }

    /// Time: 5% and 2 ms by default.
    public var time: Limit
    /// Instructions: 1% and 10,000 instructions by default. Counts repeat to a few dozen instructions
    /// for a whole launch, but a phase of a few hundred thousand can move by a few thousand between
    /// processes (seen once in CI: `building layouts` +3.0 K, +1.5%, on an unchanged manifest), so a
    /// change of under 10,000 instructions (a few microseconds of work) is never a regression.
    public var instructions: Limit
    /// Per-phase relative thresholds in percent, by phase name or path (`drawing/keys`); they apply
    /// to every metric.
    public var perPhase: [String: Double]
    /// Significance level of the test (default 0.01: a no-change phase is called changed 1% of the time).
    public var alpha: Double
    /// How the rows' tests are judged together: each alone (the default), or Holm's step-down so that
    /// α holds for the whole comparison (on a device tier: ``forResults(_:)``).
    public var family: FamilyCorrection = .perRow

    /// These thresholds for comparing `results`: on a device tier (either measured on one) every phase
    /// is stretched past the absolute floor, so every row can fail a check, and the rows are judged
    /// together (``FamilyCorrection/holm``); off a tier, unchanged.
    public func forResults(_ results: LaunchResult?...) -> Thresholds {
        var thresholds = self
        if results.contains(where: { $0?.configuration?.tier != nil }) { thresholds.family = .holm }
        return thresholds
    }

    /// The default limits of each metric (set ``time`` and ``instructions`` to change them).
    public init(perPhase: [String: Double] = [:], alpha: Double = 0.01) {
        self.time = Limit(percent: 5, floor: 0.002)
        self.instructions = Limit(percent: 1, floor: 10_000)
        self.perPhase = perPhase
        self.alpha = alpha
    }

    /// Time thresholds in the older spelling: `percent` and `seconds`.
    public init(percent: Double, seconds: Double = 0.002, perPhase: [String: Double] = [:], alpha: Double = 0.01) {
        self.init(perPhase: perPhase, alpha: alpha)
        time = Limit(percent: percent, floor: seconds)
    }

    /// Relative time threshold in percent.
    public var percent: Double { time.percent }
    /// Absolute time threshold in seconds.
    public var seconds: Double { time.floor }

    /// The limit of `metric`.
    public func limit(_ metric: Metric) -> Limit {
        switch metric {
        case .time: time
        case .instructions: instructions
        }
    }

    /// The smallest change, in the metric's unit, that counts for a phase at `path` with baseline median `baseline`.
    public func threshold(_ metric: Metric = .time, path: String, name: String, baseline: Double) -> Double {
        max(baseline * relativePercent(metric, path: path, name: name) / 100, limit(metric).floor)
    }

    /// The relative threshold, in percent, of a phase at `path`: its own (`--phase-threshold`) or the metric's.
    public func relativePercent(_ metric: Metric = .time, path: String, name: String) -> Double {
        perPhase[path] ?? perPhase[name] ?? limit(metric).percent
    }
}

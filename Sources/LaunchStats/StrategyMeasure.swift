import LaunchCore

/// What `launchprof compare` measures of a strategy, with and without it: each a per-run sample
/// read from a result, `nil` when the runs did not measure it (never 0 for "not measured").
/// Every measure is better lower.
public enum StrategyMeasure: String, CaseIterable, Codable, Sendable {
    case firstFrame = "first frame"
    case interactive
    case total
    case firstUse = "first use"
    case backgroundTime = "background time"
    /// `--resume`: the app's return to the foreground after its background step.
    case returnToForeground = "return to foreground"
    case dirtyMemory = "dirty memory"
    case layoutPasses = "layout passes"
    case tapsLost = "taps lost"
    case framesLate = "frames late"

    /// How a measure's values read.
    public enum Unit: String, Codable, Sendable { case seconds, bytes, count }

    public var unit: Unit {
        switch self {
        case .firstFrame, .interactive, .total, .firstUse, .backgroundTime, .returnToForeground: .seconds
        case .dirtyMemory: .bytes
        case .layoutPasses, .tapsLost, .framesLate: .count
        }
    }

    /// The row of a whole launch's comparison that holds this measure, for `compare --runs auto`'s
    /// stopping rule (``SequentialLook/keys``): a mark, the total, or a top-level after-launch phase;
    /// `nil` for memory and counts, which are not timed.
    public func sequentialKey(firstUse: String?) -> String? {
        switch self {
        case .firstFrame: PhaseTable.markRowName(AppInterface.firstFrameMark)
        case .interactive: PhaseTable.markRowName(AppInterface.interactiveMark)
        case .total: SequentialLook.totalKey
        case .firstUse: firstUse
        case .backgroundTime: "entering background"
        case .returnToForeground: "returning to foreground"
        case .dirtyMemory, .layoutPasses, .tapsLost, .framesLate: nil
        }
    }

    /// The per-run values of this measure in `result`; `nil` when no run has one. `firstUse` is the
    /// lazy stage timed after launch (`--touch`).
    public func samples(_ result: LaunchResult, firstUse: String?) -> [Double]? {
        let values: [Double]
        switch self {
        case .firstFrame: values = result.runs.compactMap { $0.marks.first { $0.name == AppInterface.firstFrameMark }?.time }
        case .interactive: values = result.runs.compactMap { $0.marks.first { $0.name == AppInterface.interactiveMark }?.time }
        case .total: values = result.runs.map(\.total)
        case .firstUse:
            guard let firstUse else { return nil }
            values = result.runs.compactMap { run in
                run.phases.first { $0.depth == 0 && $0.afterLaunch && $0.background != true && $0.name == firstUse }?.duration
            }
        case .backgroundTime: values = result.runs.compactMap { run in run.phases.first { $0.depth == 0 && $0.background == true }?.duration }
        case .returnToForeground:
            values = result.runs.compactMap { run in run.phases.first { $0.depth == 0 && $0.name == "returning to foreground" }?.duration }
        case .dirtyMemory: values = result.runs.compactMap { $0.counter("dirty bytes after background") }.map(Double.init)
        case .layoutPasses: values = result.runs.compactMap { $0.counter("layout passes") }.map(Double.init)
        case .tapsLost: values = result.runs.compactMap { $0.taps?.lost }.map(Double.init)
        case .framesLate: values = result.runs.compactMap { $0.counter("animation frames late") }.map(Double.init)
        }
        return values.isEmpty ? nil : values
    }
}

/// One row of `launchprof compare`: a measure of a strategy on a tier, off against on.
public struct StrategyComparisonRow: Codable, Equatable, Sendable {
    /// What the comparison concluded, in the words of someone choosing a strategy.
    public enum Verdict: String, Codable, Sendable {
        case better, worse
        case noChange = "no change"
        case inconclusive
        /// Measured on one side only (a count only the strategy makes, say).
        case notComparable = "not comparable"
    }

    public var strategy: String
    public var tier: String
    public var measure: StrategyMeasure
    public var off: Double?
    public var on: Double?
    /// `on − off` as a percentage of `off`, when `off` is above 0.
    public var changePercent: Double?
    public var verdict: Verdict
    /// The statistics behind the verdict, as `check` computes them (`off` is the baseline).
    public var comparison: ComparisonRow

    /// Compares `measure` in the runs without (`off`) and with (`on`) the strategy, made interleaved
    /// in pairs. Times use `thresholds`' time limit; memory 5% (at least 64 KiB) and counts any
    /// change of at least one, both decided by their medians when they repeat (within 0.1%), as
    /// instruction counts are, else by the rank test.
    public static func compare(
        strategy: String, tier: String, measure: StrategyMeasure, off: LaunchResult, on: LaunchResult,
        firstUse: String?, thresholds: Thresholds
    ) -> StrategyComparisonRow? {
        let a = measure.samples(off, firstUse: firstUse), b = measure.samples(on, firstUse: firstUse)
        guard a != nil || b != nil else { return nil }
        var limits = thresholds
        let metric: Metric
        switch measure.unit {
        case .seconds: metric = .time
        case .bytes:
            // Memory repeats closely from run to run, like a count: equal sides need no test.
            metric = .instructions
            limits.instructions = Thresholds.Limit(percent: 5, floor: 65_536)
            limits.perPhase = [:]
        case .count:
            metric = .instructions
            limits.instructions = Thresholds.Limit(percent: 0, floor: 0.5)
            limits.perPhase = [:]
        }
        let row = Comparison.compareSamples(name: measure.rawValue, baseline: a, candidate: b, thresholds: limits, paired: true, metric: metric)
        return StrategyComparisonRow(
            strategy: strategy, tier: tier, measure: measure, off: row.baselineMedian, on: row.candidateMedian,
            changePercent: row.changePercent, verdict: Self.verdict(row.verdict), comparison: row)
    }

    /// A comparison's verdict in the words of choosing a strategy.
    static func verdict(_ verdict: LaunchStats.Verdict) -> Verdict {
        switch verdict {
        case .slower: .worse
        case .faster: .better
        case .withinNoise: .noChange
        case .inconclusive: .inconclusive
        case .added, .removed: .notComparable
        }
    }

    /// `compare --runs auto`: the row as the sequential rule decided it after `pairs` pairs.
    public mutating func apply(_ outcome: SequentialGate.Outcome, pairs: Int) {
        comparison.apply(outcome, pairs: pairs)
        verdict = Self.verdict(comparison.verdict)
    }
}

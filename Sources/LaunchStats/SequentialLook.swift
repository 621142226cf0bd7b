import LaunchCore

/// One look of ``SequentialGate`` at interleaved runs of a whole launch: every phase, and the total.
/// `check --runs auto` and the gate benchmark call it after each pair of runs (`AdaptiveSession`).
public struct SequentialLook: Sendable {
    public let gate: SequentialGate
    public let thresholds: Thresholds
    /// The α spent by the looks so far: never more than `gate.alpha` in all.
    public private(set) var spent = 0.0
    /// The latest look's outcome per phase path, and for the total under ``totalKey``.
    public private(set) var outcomes: [String: SequentialGate.Outcome] = [:]
    /// Pairs at the latest look that spent α.
    public private(set) var pairs = 0

    /// The key of the total launch time in ``outcomes``.
    public static let totalKey = "\u{0}total"

    /// The rows that decide when to stop (phase and mark paths, ``totalKey``; after-launch phases
    /// too), or `nil` for every phase that ran before the launch ended and the total (`check`).
    public var keys: Set<String>?
    /// `compare`: a row is decided only once its interval lies past −threshold, past +threshold, or
    /// inside ± threshold (a strategy may make things better, which is not "not slower"), and a row
    /// decided worse does not stop the others. `check` stops at the first row decided slower.
    public var symmetric = false

    /// Looks planned up to `maxPairs` pairs, at the family-wise level `thresholds.alpha`.
    public init(thresholds: Thresholds, maxPairs: Int, keys: Set<String>? = nil, symmetric: Bool = false) {
        self.thresholds = thresholds
        gate = SequentialGate(alpha: thresholds.alpha, maxPairs: maxPairs)
        self.keys = keys
        self.symmetric = symmetric
    }

    /// Looks at the runs so far (both sides the same count, in pair order) and says whether to stop.
    ///
    /// At a planned look it spends that look's αₖ; on the `last` look (the budget is spent) it
    /// spends whatever is left, so the looks never spend more than α in all. Between planned looks
    /// it spends nothing and never stops. It stops when every phase and the total are decided, or as
    /// soon as one is decided slower (the check fails then, whatever the others would say).
    public mutating func look(baseline a: LaunchResult, candidate b: LaunchResult, last: Bool) -> Bool {
        let pairs = min(a.runs.count, b.runs.count)
        let level = alpha(atPairs: pairs, last: last)
        guard level > 0 else { return last }
        spent += level
        self.pairs = pairs
        outcomes = decide(baseline: a, candidate: b, pairs: pairs, alpha: level)
        return last || (symmetric ? outcomes.values.allSatisfy { $0.decision != .undecided } : Self.decided(outcomes))
    }

    /// The α a look at `pairs` pairs may spend: αₖ at a planned look, everything not yet spent on
    /// the last one, 0 otherwise (no look is due: the caller need not build the results).
    public func alpha(atPairs pairs: Int, last: Bool) -> Double {
        last ? max(0, gate.alpha - spent) : gate.alpha(atPairs: pairs)
    }

    /// Whether a look's outcomes end the sequence: all decided, or one slower.
    public static func decided(_ outcomes: [String: SequentialGate.Outcome]) -> Bool {
        outcomes.values.contains { $0.decision == .slower } || outcomes.values.allSatisfy { $0.decision != .undecided }
    }

    /// Every phase that ran in every run of both sides before the launch ended, and the total, at
    /// one look at level 1 − `alpha`. A phase's threshold is taken from its baseline median.
    public func decide(baseline a: LaunchResult, candidate b: LaunchResult, pairs: Int, alpha: Double) -> [String: SequentialGate.Outcome] {
        let tableA = PhaseTable(a), tableB = PhaseTable(b)
        let rowsA = Dictionary(tableA.rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var outcomes: [String: SequentialGate.Outcome] = [:]
        func decide(_ key: String, name: String, _ valuesA: [Double], _ valuesB: [Double]) {
            guard valuesA.count == pairs, valuesB.count == pairs, let base = Summary(valuesA)?.median else { return }
            let threshold = thresholds.threshold(.time, path: key, name: name, baseline: base)
            outcomes[key] = settled(gate.decide(differences: zip(valuesB, valuesA).map { $0 - $1 }, threshold: threshold, alpha: alpha), threshold)
        }
        for row in tableB.rows where keys.map({ $0.contains(row.path) }) ?? !row.afterLaunch {
            guard let rowA = rowsA[row.path] else { continue }
            decide(row.path, name: row.name, rowA.durations, row.durations)
        }
        let totalName = "Total launch time"
        if keys?.contains(Self.totalKey) ?? true, let base = Summary(tableA.totals)?.median, tableA.totals.count == pairs, tableB.totals.count == pairs {
            let threshold = thresholds.threshold(.time, path: totalName, name: totalName, baseline: base)
            outcomes[Self.totalKey] = settled(
                gate.decide(differences: zip(tableB.totals, tableA.totals).map { $0 - $1 }, threshold: threshold, alpha: alpha), threshold)
        }
        return outcomes
    }

    /// With ``symmetric``, "not slower" with an interval reaching below −threshold is still undecided.
    func settled(_ outcome: SequentialGate.Outcome, _ threshold: Double) -> SequentialGate.Outcome {
        guard symmetric, outcome.decision == .notSlower, (outcome.lower ?? -.infinity) <= -threshold else { return outcome }
        var undecided = outcome
        undecided.decision = .undecided
        return undecided
    }

    /// The paired comparison of `a` and `b` with the latest look's verdicts and intervals on its rows
    /// (rows the look did not decide keep the fixed-sample test's).
    public func comparison(baseline a: LaunchResult, candidate b: LaunchResult) -> Comparison {
        var comparison = Comparison(baseline: a, candidate: b, thresholds: thresholds, paired: true)
        for i in comparison.rows.indices {
            if let outcome = outcomes[comparison.rows[i].path] { comparison.rows[i].apply(outcome, pairs: pairs) }
        }
        if let outcome = outcomes[Self.totalKey] { comparison.total.apply(outcome, pairs: pairs) }
        return comparison
    }
}

#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// What a comparison concluded about one phase.
public enum Verdict: String, Codable, Sendable {
    /// B is slower by more than the threshold, and the test says the change is real.
    case slower
    /// B is faster by more than the threshold, and the change is real.
    case faster
    /// Any change is smaller than the threshold: real but small, or ruled out by the interval.
    case withinNoise = "within noise"
    /// The runs cannot tell whether a threshold-sized change happened.
    case inconclusive
    /// Only in B.
    case added
    /// Only in A.
    case removed
}

/// One row of a comparison: a phase (or the total) in A and in B.
public struct ComparisonRow: Equatable, Sendable, Codable {
    public var path: String
    public var name: String
    public var depth: Int
    public var baselineMedian: Double?
    public var candidateMedian: Double?
    /// B − A of the medians, in seconds.
    public var change: Double?
    /// The change in percent of A's median.
    public var changePercent: Double?
    public var verdict: Verdict
    /// Two-sided Mann–Whitney p-value.
    public var p: Double?
    /// 99% bootstrap interval of the change of medians, in seconds.
    public var intervalLower: Double?
    public var intervalUpper: Double?
    /// The smallest change that counted for this row, in seconds.
    public var threshold: Double?
    /// For an inconclusive row: about how many more runs per side would decide it.
    public var moreRunsNeeded: Int?
    /// `true` when both sides' values were repeatable (spread within
    /// ``Comparison/deterministicSpread`` of the median, as instruction counts are): the verdict
    /// compares the medians directly, with no test. `nil` for time.
    public var deterministic: Bool?
    /// What the medians, change and threshold are in: seconds, or instructions.
    public var metric: Metric = .time
    /// For a row decided by `check --runs auto` (``SequentialGate``): the pairs of runs it took.
    /// The interval is then that rule's, at level ``intervalLevel``, and `change` the median of the
    /// per-pair differences.
    public var sequentialRuns: Int?
    /// The confidence level of the interval (the bootstrap's 0.99, or the sequential look's).
    public var intervalLevel: Double?

    /// Applies a sequential decision made after `pairs` interleaved pairs.
    public mutating func apply(_ outcome: SequentialGate.Outcome, pairs: Int) {
        sequentialRuns = pairs
        intervalLevel = outcome.level
        intervalLower = outcome.lower
        intervalUpper = outcome.upper
        p = nil
        moreRunsNeeded = nil
        change = outcome.change
        changePercent = baselineMedian.flatMap { $0 > 0 ? outcome.change / $0 * 100 : nil }
        switch outcome.decision {
        case .slower: verdict = .slower
        case .faster: verdict = .faster
        case .notSlower: verdict = .withinNoise
        case .undecided: verdict = .inconclusive
        }
    }

    /// The confidence that the two differ, 1 − p.
    public var confidence: Double? { p.map { 1 - $0 } }
}

/// Compares a baseline result (A) with a candidate (B), phase by phase and for the total.
///
/// A phase has **regressed** when the test finds the change significant (p < α) and
/// the change of medians is larger than the threshold. A change that is significant but smaller, or
/// not significant while the 99% bootstrap interval of the change lies inside ± threshold, is
/// **within noise**; otherwise the runs are **inconclusive**, with an estimate of how many more would
/// decide.
///
/// The test is Mann–Whitney U for independent samples, or, for a `paired` comparison (runs made
/// interleaved, run i of A next to run i of B), the Wilcoxon signed-rank test on the per-pair
/// differences with a pairs bootstrap, which cancels the machine's drift shared by neighbours.
public struct Comparison: Equatable, Sendable, Codable {
    /// Every phase present in either result: B's order, then phases only in A.
    public var rows: [ComparisonRow]
    /// The launch total.
    public var total: ComparisonRow
    /// Whether the runs were compared in pairs (interleaved runs).
    public var paired: Bool
    /// What was compared: durations (seconds) or instruction counts.
    public var metric: Metric

    /// The largest spread (max − min over the median) of a phase's values that still counts as
    /// deterministic: 0.1%. Instruction counts of the same launch differ by under 0.00003%.
    public static let deterministicSpread = 0.001
    /// Spreads up to this many instructions count as deterministic whatever the median: the
    /// smallest phases move by a few dozen instructions between runs (allocator and runtime paths).
    public static let deterministicSlack = 1000.0

    /// Phases (and the total) that got slower.
    public var regressions: [ComparisonRow] { (rows + [total]).filter { $0.verdict == .slower } }

    public init(baseline a: LaunchResult, candidate b: LaunchResult, thresholds: Thresholds = Thresholds(), paired: Bool = false,
                metric: Metric = .time) {
        let paired = paired && a.runs.count == b.runs.count
        self.paired = paired
        self.metric = metric
        let tableA = PhaseTable(a), tableB = PhaseTable(b)
        let rowsA = Dictionary(tableA.rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let pathsB = Set(tableB.rows.map(\.path))
        var rows: [ComparisonRow] = []
        // A phase without values of the metric on a side (not counted) is absent there, never 0.
        func values(_ row: PhaseTable.Row?) -> [Double]? {
            guard let row else { return nil }
            let values = row.values(metric)
            return values.isEmpty ? nil : values
        }
        for row in tableB.rows {
            guard values(row) != nil || values(rowsA[row.path]) != nil else { continue }
            rows.append(Self.compare(path: row.path, name: row.name, depth: row.depth,
                                     values(rowsA[row.path]), values(row), thresholds, paired: paired, metric: metric))
        }
        for row in tableA.rows where !pathsB.contains(row.path) {
            guard let valuesA = values(row) else { continue }
            rows.append(Self.compare(path: row.path, name: row.name, depth: row.depth, valuesA, nil, thresholds, metric: metric))
        }
        self.rows = rows
        let totalName = metric == .time ? "Total launch time" : "Total launch instructions"
        let totalsA = tableA.totals(metric), totalsB = tableB.totals(metric)
        total = Self.compare(path: totalName, name: totalName, depth: 0, totalsA.isEmpty ? nil : totalsA,
                             totalsB.isEmpty ? nil : totalsB, thresholds, paired: paired, metric: metric)
    }

    /// Whether `values` spread by at most ``deterministicSpread`` of their median, or by at most
    /// ``deterministicSlack``.
    public static func isDeterministic(_ values: [Double]) -> Bool {
        guard let low = values.min(), let high = values.max(), let summary = Summary(values) else { return false }
        return high - low <= max(abs(summary.median) * deterministicSpread, deterministicSlack)
    }

    /// The phases (paths) of `result` whose values of `metric` spread across its runs by more than
    /// ``deterministicSpread``, with their spread as a fraction of the median. Needs two runs or more.
    public static func nondeterministicPhases(in result: LaunchResult, metric: Metric = .instructions) -> [(path: String, spread: Double)] {
        let table = PhaseTable(result)
        var found: [(path: String, spread: Double)] = []
        for row in table.rows {
            let values = row.values(metric)
            guard values.count >= 2, !isDeterministic(values), let low = values.min(), let high = values.max(),
                  let median = Summary(values)?.median, median > 0 else { continue }
            found.append((row.path, (high - low) / median))
        }
        return found
    }

    /// Whether `pairs` pairs can give a two-sided signed-rank p-value below `alpha`.
    static func signedRankCanReach(_ alpha: Double, pairs: Int) -> Bool {
        pairs < 1024 && 2 / pow(2, Double(pairs)) < alpha
    }

    static func compare(path: String, name: String, depth: Int, _ a: [Double]?, _ b: [Double]?, _ thresholds: Thresholds,
                        paired: Bool = false, metric: Metric = .time) -> ComparisonRow {
        var row = ComparisonRow(path: path, name: name, depth: depth, verdict: .inconclusive)
        row.metric = metric
        guard let a, let sa = Summary(a) else {
            row.verdict = .added
            row.candidateMedian = b.flatMap { Summary($0)?.median }
            return row
        }
        row.baselineMedian = sa.median
        guard let b, let sb = Summary(b) else {
            row.verdict = .removed
            return row
        }
        row.candidateMedian = sb.median
        let change = sb.median - sa.median
        row.change = change
        row.changePercent = sa.median > 0 ? change / sa.median * 100 : nil
        let threshold = thresholds.threshold(metric, path: path, name: name, baseline: sa.median)
        row.threshold = threshold
        // Repeatable values (instruction counts) need no test: the medians are the answer.
        if metric == .instructions {
            row.deterministic = Self.isDeterministic(a) && Self.isDeterministic(b)
            if row.deterministic == true {
                row.verdict = abs(change) > threshold ? (change > 0 ? .slower : .faster) : .withinNoise
                return row
            }
        }
        // Pairs only when the phase ran in every run of both sides, so run i still pairs with run i,
        // and when there are enough pairs for the signed-rank test to reach α at all (its smallest
        // p-value is 2 / 2ⁿ: 7 pairs cannot reach 0.01); otherwise the two samples are compared.
        let pairs = paired && a.count == b.count && Self.signedRankCanReach(thresholds.alpha, pairs: a.count)
        row.p = pairs ? WilcoxonSignedRank.test(a, b)?.p : MannWhitney.test(a, b)?.p
        let interval = pairs ? Bootstrap.pairedMedianDifferenceInterval(a, b) : Bootstrap.medianDifferenceInterval(a, b)
        row.intervalLower = interval?.lower
        row.intervalUpper = interval?.upper
        let significant = (row.p ?? 1) < thresholds.alpha

        if significant && abs(change) > threshold {
            row.verdict = change > 0 ? .slower : .faster
        } else if significant {
            row.verdict = .withinNoise
        } else if let interval, interval.lower > -threshold, interval.upper < threshold {
            row.verdict = .withinNoise
        } else {
            row.verdict = .inconclusive
            // The interval shrinks about as 1/√n: the runs that would bring its half-width down to
            // the room left between the change and the threshold (or to the change itself).
            if let interval {
                let halfWidth = (interval.upper - interval.lower) / 2
                let room = abs(change) < threshold ? threshold - abs(change) : abs(change)
                if room > 0, halfWidth > 0 {
                    let n = Double(min(a.count, b.count))
                    let needed = n * (halfWidth / room) * (halfWidth / room)
                    row.moreRunsNeeded = max(1, Int((needed - n).rounded(.up)))
                }
            }
        }
        return row
    }
}

extension Comparison {
    /// Reasons the two results may not be comparable: another tier, another manifest, another host,
    /// another run mode. Empty when they match.
    public static func caveats(baseline a: LaunchResult, candidate b: LaunchResult) -> [String] {
        var caveats: [String] = []
        let tierA = a.configuration?.tier?.name ?? "host", tierB = b.configuration?.tier?.name ?? "host"
        if tierA != tierB { caveats.append("the results are from different tiers (\(tierA) and \(tierB))") }
        if a.manifest.sha256 != b.manifest.sha256, !a.manifest.sha256.isEmpty, !b.manifest.sha256.isEmpty {
            caveats.append("the manifests differ (\(a.manifest.name) \(a.manifest.sha256.prefix(8)) and \(b.manifest.name) \(b.manifest.sha256.prefix(8)))")
        }
        if a.host.cpuModel != b.host.cpuModel || a.host.cores != b.host.cores {
            caveats.append("the results are from different hosts (\(a.host.cpuModel), \(a.host.cores) cores and \(b.host.cpuModel), \(b.host.cores) cores)")
        }
        let modeA = a.configuration?.mode ?? "warm", modeB = b.configuration?.mode ?? "warm"
        if modeA != modeB { caveats.append("one result is \(modeA), the other \(modeB)") }
        return caveats
    }
}

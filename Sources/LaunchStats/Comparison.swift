#if canImport(Glibc)
import Glibc
#endif
import Dispatch
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

/// Which confidence interval a row carries.
public enum IntervalMethod: String, Codable, Sendable {
    /// The distribution-free interval of the Hodges–Lehmann shift (unpaired runs).
    case hodgesLehmann = "hodges-lehmann"
    /// The sign-test interval of the median per-pair difference (paired runs).
    case signTest = "sign test"
    /// The percentile bootstrap of the change of medians (phases near the threshold, or too few runs
    /// for a rank interval at 99%).
    case bootstrap
}

/// One row of a comparison: a phase (or the total) in A and in B.
public struct ComparisonRow: Equatable, Sendable, Codable {
    public var path: String
    public var name: String
    public var depth: Int
    /// Medians in the comparison's metric: seconds, or instructions.
    public var baselineMedian: Double?
    public var candidateMedian: Double?
    /// B − A of the medians, in the metric's unit.
    public var change: Double?
    /// The change in percent of A's median.
    public var changePercent: Double?
    public var verdict: Verdict
    /// Two-sided p-value of the rank test; `nil` for a deterministic row.
    public var p: Double?
    /// 99% confidence interval of the change, in the metric's unit (see ``intervalMethod``).
    public var intervalLower: Double?
    public var intervalUpper: Double?
    /// The smallest change that counted for this row, in the metric's unit: the larger of
    /// ``thresholdPercent`` of the baseline median and the metric's absolute floor (`--min-change`).
    public var threshold: Double?
    /// The relative threshold that applied, in percent of the baseline median.
    public var thresholdPercent: Double?
    /// Values on the smaller side (runs each), for a row the rank test decided.
    public var runsEach: Int?
    /// For an inconclusive row with fewer runs than the rank test needs to reach the significance
    /// level at all: the runs each it needs (5 at α = 0.01).
    public var runsForSignificance: Int?
    /// For an inconclusive row: about how many more runs per side would decide it (at most
    /// ``Comparison/maximumSuggestedRuns``).
    public var moreRunsNeeded: Int?
    /// `true` when both sides' values were repeatable (spread within
    /// ``Comparison/deterministicSpread`` of the median, or ``Comparison/deterministicSlack``, as
    /// instruction counts are): the verdict compares the medians directly, with no test. `nil` for time.
    public var deterministic: Bool?
    /// What the medians, change and threshold are in: seconds, or instructions.
    public var metric: Metric = .time
    /// The kind of interval in ``intervalLower``…``intervalUpper``.
    public var intervalMethod: IntervalMethod?
    /// For a row significant alone but not among the rows judged together (``FamilyCorrection/holm``):
    /// the level its p-value had to be under.
    public var familyLevel: Double?
    /// Why a row was decided as it was, when that needs saying (e.g. counts that are not deterministic).
    public var note: String?

    public init(path: String, name: String, depth: Int, verdict: Verdict) {
        self.path = path
        self.name = name
        self.depth = depth
        self.verdict = verdict
    }

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
        intervalMethod = .signTest
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

/// Compares a baseline result (A) with a candidate (B), phase by phase and for the total, in one
/// metric: time (durations) or instructions (Callgrind counts; phases without counts are skipped).
///
/// A phase has **regressed** when the test finds the change significant (p < α) and
/// the change of medians is larger than the threshold. A change that is significant but smaller, or
/// not significant while the 99% interval of the change lies inside ± threshold, is **within
/// noise**; otherwise the runs are **inconclusive**, with an estimate of how many more would decide.
///
/// The test is Mann–Whitney U for independent samples, or, for a `paired` comparison (runs made
/// interleaved, run i of A next to run i of B), the Wilcoxon signed-rank test on the per-pair
/// differences, which cancels the machine's drift shared by neighbours. The interval is rank-based
/// (``RankIntervals``): the Hodges–Lehmann shift interval, or the sign-test interval for pairs; the
/// bootstrap is used only for phases whose interval ends near ± threshold and for samples too small
/// for a rank interval. Instruction counts that repeat within 0.1% on both sides are decided on
/// the medians alone (``DecisionBasis/deterministic``). Phases are analysed in parallel.
/// See `docs/comparison.md`.
public struct Comparison: Equatable, Sendable, Codable {
    /// Every phase present in either result: B's order, then phases only in A.
    public var rows: [ComparisonRow]
    /// The launch total.
    public var total: ComparisonRow
    /// Whether the runs were compared in pairs (interleaved runs).
    public var paired: Bool
    /// What was compared: durations (seconds) or instruction counts.
    public var metric: Metric
    /// How the rows' tests were judged together (on a device tier: ``FamilyCorrection/holm``);
    /// `nil` when each row was judged alone.
    public var family: TestedTogether?

    /// The largest spread (max − min over the median) of a phase's values that still counts as
    /// deterministic: 0.1%. Instruction counts of the same launch differ by under 0.00003%.
    public static let deterministicSpread = 0.001
    /// Spreads up to this many instructions count as deterministic whatever the median: the
    /// smallest phases move by a few dozen instructions between runs (allocator and runtime paths).
    public static let deterministicSlack = 1000.0

    /// The most runs a row suggests adding: past this, the change is as good as equal to the threshold.
    public static let maximumSuggestedRuns = 1_000_000
    /// The confidence of the intervals.
    public static let intervalConfidence = 0.99
    /// An interval end closer than this share of the threshold to ± threshold is checked by the bootstrap.
    public static let nearThresholdShare = 0.1
    /// The total's row name per metric.
    public static let timeTotalName = "Total launch time"
    public static let instructionTotalName = "Total launch instructions"

    /// Phases (and the total) that got slower.
    public var regressions: [ComparisonRow] { (rows + [total]).filter { $0.verdict == .slower } }

    public init(
        baseline a: LaunchResult, candidate b: LaunchResult, thresholds: Thresholds = Thresholds(), paired: Bool = false,
        metric: Metric = .time
    ) {
        self.init(baseline: PhaseTable(a), candidate: PhaseTable(b), thresholds: thresholds, paired: paired, metric: metric)
    }

    /// Compares two phase tables (as ``PhaseTable/init(_:)`` or a streaming reader build them).
    public init(
        baseline tableA: PhaseTable, candidate tableB: PhaseTable, thresholds: Thresholds = Thresholds(), paired: Bool = false,
        metric: Metric = .time
    ) {
        let paired = paired && tableA.runCount == tableB.runCount
        self.paired = paired
        self.metric = metric
        let rowsA = Dictionary(tableA.rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let pathsB = Set(tableB.rows.map(\.path))
        var jobs: [Job] = []
        jobs.reserveCapacity(tableB.rows.count + 1)
        // A phase without values of the metric on a side (not counted) is absent there, never 0.
        func values(_ row: PhaseTable.Row?) -> [Double]? {
            guard let row else { return nil }
            let values = row.values(metric)
            return values.isEmpty ? nil : values
        }
        for row in tableB.rows {
            let valuesA = values(rowsA[row.path]), valuesB = values(row)
            guard valuesA != nil || valuesB != nil else { continue }
            jobs.append(Job(path: row.path, name: row.name, depth: row.depth, a: valuesA, b: valuesB))
        }
        for row in tableA.rows where !pathsB.contains(row.path) {
            guard let valuesA = values(row) else { continue }
            jobs.append(Job(path: row.path, name: row.name, depth: row.depth, a: valuesA, b: nil))
        }
        let totalName = metric == .time ? Self.timeTotalName : Self.instructionTotalName
        let totalsA = tableA.totals(metric), totalsB = tableB.totals(metric)
        jobs.append(Job(path: totalName, name: totalName, depth: 0, a: totalsA.isEmpty ? nil : totalsA, b: totalsB.isEmpty ? nil : totalsB))

        let tables = RankTables(jobs: jobs, paired: paired, alpha: thresholds.alpha)
        var results = Self.analyse(jobs, thresholds: thresholds, paired: paired, metric: metric, tables: tables)
        if thresholds.family == .holm {
            family = TestedTogether(correction: .holm, rows: Self.applyHolm(&results, alpha: thresholds.alpha), alpha: thresholds.alpha)
        }
        rows = Array(results.dropLast())
        total = results[results.count - 1]
    }

    /// Whether `values` spread by at most ``deterministicSpread`` of their median, or by at most
    /// ``deterministicSlack``.
    public static func isDeterministic(_ values: [Double]) -> Bool {
        isDeterministic(sorted: values.filter(\.isFinite).sorted())
    }

    /// ``isDeterministic(_:)`` for finite values sorted ascending.
    static func isDeterministic(sorted values: [Double]) -> Bool {
        guard let low = values.first, let high = values.last else { return false }
        return high - low <= Swift.max(abs(Summary.quantile(values, 0.5)) * deterministicSpread, deterministicSlack)
    }

    /// The phases (paths) of `result` whose values of `metric` spread across its runs by more than
    /// ``deterministicSpread``, with their spread as a fraction of the median. Needs two runs or more.
    public static func nondeterministicPhases(in result: LaunchResult, metric: Metric = .instructions) -> [(path: String, spread: Double)] {
        nondeterministicPhases(in: PhaseTable(result), metric: metric)
    }

    /// ``nondeterministicPhases(in:metric:)`` of a phase table (as the streaming reader builds it).
    public static func nondeterministicPhases(in table: PhaseTable, metric: Metric = .instructions) -> [(path: String, spread: Double)] {
        var found: [(path: String, spread: Double)] = []
        for row in table.rows {
            let values = row.values(metric).filter(\.isFinite).sorted()
            guard values.count >= 2, !isDeterministic(sorted: values), let low = values.first, let high = values.last else { continue }
            let median = Summary.quantile(values, 0.5)
            guard median > 0 else { continue }
            found.append((row.path, (high - low) / median))
        }
        return found
    }

    /// One phase to compare.
    struct Job: Sendable {
        var path: String
        var name: String
        var depth: Int
        var a: [Double]?
        var b: [Double]?
    }

    /// Compares every job, spread over the processor's cores in chunks.
    static func analyse(_ jobs: [Job], thresholds: Thresholds, paired: Bool, metric: Metric, tables: RankTables) -> [ComparisonRow] {
        let count = jobs.count
        var output = [ComparisonRow](repeating: ComparisonRow(path: "", name: "", depth: 0, verdict: .inconclusive), count: count)
        let chunkSize = 64
        let chunks = (count + chunkSize - 1) / chunkSize
        output.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let out = buffer
            let work: @Sendable (Int) -> Void = { chunk in
                let end = Swift.min(count, (chunk + 1) * chunkSize)
                for i in (chunk * chunkSize)..<end {
                    let job = jobs[i]
                    out[i] = compare(
                        path: job.path, name: job.name, depth: job.depth, job.a, job.b, thresholds,
                        paired: paired, metric: metric, tables: tables)
                }
            }
            if chunks > 1 {
                DispatchQueue.concurrentPerform(iterations: chunks, execute: work)
            } else if chunks == 1 {
                work(0)
            }
        }
        return output
    }

    /// Compares two samples of one measure as a phase is compared: `nil` on a side means not measured
    /// there (the row is `added` or `removed`).
    public static func compareSamples(
        name: String, baseline a: [Double]?, candidate b: [Double]?, thresholds: Thresholds,
        paired: Bool, metric: Metric
    ) -> ComparisonRow {
        compare(path: name, name: name, depth: 0, a, b, thresholds, paired: paired, metric: metric)
    }

    /// Whether `pairs` pairs can give a two-sided signed-rank p-value below `alpha`.
    static func signedRankCanReach(_ alpha: Double, pairs: Int) -> Bool {
        pairs < 1024 && 2 / pow(2, Double(pairs)) < alpha
    }

    /// The runs to suggest adding, from a real-valued estimate: at least 1, at most
    /// ``maximumSuggestedRuns`` (an estimate that is infinite or past it gives the cap), `nil` for NaN.
    static func suggestedRuns(_ more: Double) -> Int? {
        guard !more.isNaN else { return nil }
        guard more < Double(maximumSuggestedRuns) else { return maximumSuggestedRuns }
        return Swift.max(1, Int(more.rounded(.up)))
    }

    /// The finite ones of `values`, sorted ascending (one copy, sorted in place).
    static func finiteSorted(_ values: [Double]?) -> [Double] {
        guard var sorted = values else { return [] }
        if !sorted.allSatisfy(\.isFinite) { sorted.removeAll { !$0.isFinite } }
        sorted.sort()
        return sorted
    }

    static func compare(
        path: String, name: String, depth: Int, _ a: [Double]?, _ b: [Double]?, _ thresholds: Thresholds,
        paired: Bool = false, metric: Metric = .time, tables: RankTables? = nil
    ) -> ComparisonRow {
        var row = ComparisonRow(path: path, name: name, depth: depth, verdict: .inconclusive)
        row.metric = metric
        // Only finite values take part (readers refuse others; this keeps the arithmetic total).
        let sortedA = finiteSorted(a)
        guard !sortedA.isEmpty else {
            row.verdict = .added
            let sortedB = finiteSorted(b)
            row.candidateMedian = sortedB.isEmpty ? nil : Summary.quantile(sortedB, 0.5)
            return row
        }
        row.baselineMedian = Summary.quantile(sortedA, 0.5)
        let sortedB = finiteSorted(b)
        guard !sortedB.isEmpty else {
            row.verdict = .removed
            return row
        }
        let (change, threshold) = measureChange(&row, sortedA: sortedA, sortedB: sortedB, thresholds)
        // Repeatable values (instruction counts) need no test: the medians are the answer.
        if metric == .instructions, decideByCounts(&row, sortedA: sortedA, sortedB: sortedB, change: change, threshold: threshold) {
            return row
        }
        let (significant, interval) = testShift(
            &row, a ?? [], b ?? [], sortedA: sortedA, sortedB: sortedB, thresholds, threshold: threshold, paired: paired, tables: tables)
        decide(&row, significant: significant, interval: interval, change: change, threshold: threshold, alpha: thresholds.alpha)
        return row
    }

    /// Sets the row's candidate median, its change from the baseline's and the threshold that change
    /// is judged by; returns the change and the threshold.
    static func measureChange(
        _ row: inout ComparisonRow, sortedA: [Double], sortedB: [Double], _ thresholds: Thresholds
    ) -> (change: Double, threshold: Double) {
        let medianA = Summary.quantile(sortedA, 0.5), medianB = Summary.quantile(sortedB, 0.5)
        row.candidateMedian = medianB
        let change = medianB - medianA
        row.change = change
        row.changePercent = medianA > 0 ? change / medianA * 100 : nil
        let threshold = thresholds.threshold(row.metric, path: row.path, name: row.name, baseline: medianA)
        row.threshold = threshold
        row.thresholdPercent = thresholds.relativePercent(row.metric, path: row.path, name: row.name)
        return (change, threshold)
    }

    /// Instruction counts repeatable on both sides decide the verdict by their medians (`true`);
    /// otherwise the row notes which side spreads, and the rank test decides (`false`).
    static func decideByCounts(_ row: inout ComparisonRow, sortedA: [Double], sortedB: [Double], change: Double, threshold: Double) -> Bool {
        let deterministicA = isDeterministic(sorted: sortedA), deterministicB = isDeterministic(sorted: sortedB)
        row.deterministic = deterministicA && deterministicB
        if deterministicA && deterministicB {
            row.verdict = abs(change) > threshold ? (change > 0 ? .slower : .faster) : .withinNoise
            return true
        }
        let (side, sorted) = deterministicA ? ("candidate", sortedB) : ("baseline", sortedA)
        let spread = ((sorted.last ?? 0) - (sorted.first ?? 0)) / Swift.max(abs(Summary.quantile(sorted, 0.5)), 1)
        row.note =
            "not deterministic: the \(side)'s counts spread by \(SpreadFormat.percent(spread * 100)) of their median (over 0.1%), so the rank test decides"
        return false
    }

    /// The rank test of the shift and its confidence interval, set on the row (p-value, interval and
    /// its method, runs each); returns whether the test is significant, and the interval.
    static func testShift(
        _ row: inout ComparisonRow, _ a: [Double], _ b: [Double], sortedA: [Double], sortedB: [Double], _ thresholds: Thresholds,
        threshold: Double, paired: Bool, tables: RankTables?
    ) -> (significant: Bool, interval: (lower: Double, upper: Double)?) {
        // Pairs only when the phase ran in every run of both sides, so run i still pairs with run i,
        // and when there are enough pairs for the signed-rank test to reach α at all (its smallest
        // p-value is 2 / 2ⁿ: 7 pairs cannot reach 0.01); otherwise the two samples are compared.
        let pairs =
            paired && a.count == b.count && a.count == sortedA.count && b.count == sortedB.count
            && Self.signedRankCanReach(thresholds.alpha, pairs: a.count)
        let exact = tables?.mannWhitney[RankTables.Sizes(sortedA.count, sortedB.count)]
        row.p = pairs ? WilcoxonSignedRank.test(a, b)?.p : MannWhitney.test(sortedA: sortedA, sortedB: sortedB, exactCounts: exact)?.p
        var interval: (lower: Double, upper: Double)?
        if pairs {
            interval = RankIntervals.pairedInterval(a, b, confidence: intervalConfidence)
            row.intervalMethod = .signTest
        } else {
            interval = RankIntervals.shiftInterval(sortedA: sortedA, sortedB: sortedB, confidence: intervalConfidence, exactCounts: exact)
            row.intervalMethod = .hodgesLehmann
        }
        let significant = (row.p ?? 1) < thresholds.alpha
        // The interval decides between "within noise" and "inconclusive" only when the test is not
        // significant: then an end near ± threshold is checked with the bootstrap of the medians.
        let margin = nearThresholdShare * threshold
        let nearThreshold = interval.map { abs($0.lower + threshold) <= margin || abs($0.upper - threshold) <= margin }
        if interval == nil || (!significant && nearThreshold == true) {
            interval =
                pairs
                ? Bootstrap.pairedMedianDifferenceInterval(a, b, confidence: intervalConfidence)
                : Bootstrap.medianDifferenceInterval(sortedA, sortedB, confidence: intervalConfidence)
            row.intervalMethod = .bootstrap
        }
        row.intervalLower = interval?.lower
        row.intervalUpper = interval?.upper
        row.runsEach = Swift.min(sortedA.count, sortedB.count)
        return (significant, interval)
    }

    /// The verdict from the test and the interval: slower or faster when significant and past the
    /// threshold, within noise when significant or the interval lies within ± threshold, else
    /// inconclusive (with an estimate of the runs that would decide).
    static func decide(
        _ row: inout ComparisonRow, significant: Bool, interval: (lower: Double, upper: Double)?, change: Double, threshold: Double, alpha: Double
    ) {
        if significant && abs(change) > threshold {
            row.verdict = change > 0 ? .slower : .faster
        } else if significant {
            row.verdict = .withinNoise
        } else if let interval, interval.lower > -threshold, interval.upper < threshold {
            row.verdict = .withinNoise
        } else {
            row.verdict = .inconclusive
            estimateMoreRuns(&row, interval: interval, alpha: alpha, runs: row.runsEach ?? 0)
        }
    }
}

extension Comparison {
    /// The fewest runs each with which the exact Mann–Whitney test can reach `alpha` at all: its
    /// smallest two-sided p-value is 2 / C(2n, n) (5 runs each at α = 0.01). Paired runs too few for
    /// the signed-rank test are compared with it.
    public static func runsForSignificance(alpha: Double) -> Int {
        var choose = 2.0  // C(2n, n) for n = 1
        for n in 1..<64 {
            if 2 / choose < alpha { return n }
            choose = choose * Double(2 * n + 1) * Double(2 * n + 2) / Double((n + 1) * (n + 1))
        }
        return 64
    }

    /// About how many more runs each would decide an inconclusive row, the largest of: the runs that
    /// bring the interval's half-width down to the room between the change and the threshold (it
    /// shrinks as 1/√n); for a change past the threshold, the runs that bring the test's p-value
    /// under α (z grows as √n); and the runs the test needs to reach α at all.
    static func estimateMoreRuns(_ row: inout ComparisonRow, interval: (lower: Double, upper: Double)?, alpha: Double, runs: Int) {
        guard let change = row.change, let threshold = row.threshold else { return }
        let n = Double(runs)
        var total = n
        if let interval {
            let halfWidth = (interval.upper - interval.lower) / 2
            let room = abs(change) < threshold ? threshold - abs(change) : abs(change)
            if room > 0, halfWidth > 0, room.isFinite, halfWidth.isFinite {
                let ratio = halfWidth / room
                total = Swift.max(total, n * ratio * ratio)
            }
        }
        let minimum = runsForSignificance(alpha: alpha)
        // Under the test's minimum the p-value sits at its floor, which says nothing of the runs to add.
        if abs(change) > threshold, runs >= minimum, let p = row.p, p > alpha, p < 1 {
            let now = NormalDistribution.quantile(1 - p / 2), needed = NormalDistribution.quantile(1 - alpha / 2)
            if now > 0, now.isFinite, needed.isFinite { total = Swift.max(total, n * (needed / now) * (needed / now)) }
        }
        if runs < minimum {
            row.runsForSignificance = minimum
            total = Swift.max(total, Double(minimum))
        }
        row.moreRunsNeeded = total > n ? suggestedRuns(total - n) : nil
    }
}

/// Exact rank distributions computed once per pair of sample sizes before the phases are analysed
/// in parallel (every phase of a 100-run result has the same sizes), read-only afterwards.
struct RankTables: Sendable {
    struct Sizes: Hashable, Sendable {
        var n: Int
        var m: Int
        init(_ n: Int, _ m: Int) { self.n = n; self.m = m }
    }

    /// Mann–Whitney U distributions for sizes small enough for the exact test.
    var mannWhitney: [Sizes: [Double]] = [:]

    init(jobs: [Comparison.Job], paired: Bool, alpha: Double) {
        for job in jobs {
            guard let a = job.a, let b = job.b else { continue }
            let sizes = Sizes(a.count, b.count)
            guard sizes.n > 0, sizes.m > 0, mannWhitney[sizes] == nil,
                MannWhitney.usesExactDistribution(n: sizes.n, m: sizes.m)
            else { continue }
            mannWhitney[sizes] = MannWhitney.exactDistribution(n: sizes.n, m: sizes.m)
        }
    }
}

/// Percentages in notes: two significant decimals.
enum SpreadFormat {
    static func percent(_ value: Double) -> String {
        let scaled = (value * 100).rounded() / 100
        return "\(scaled)%"
    }
}

extension Comparison {
    /// Reasons the two results may not be comparable: the environment differences `check` refuses
    /// (``EnvironmentCheck/differences(baseline:candidate:)``: another host, tier, metric or reference
    /// version), then another manifest, another run mode, and another toolchain or launchprof build.
    /// Empty when they match.
    public static func caveats(baseline a: LaunchResult, candidate b: LaunchResult) -> [String] {
        var caveats = EnvironmentCheck.differences(baseline: a, candidate: b)
        if a.manifest.sha256 != b.manifest.sha256, !a.manifest.sha256.isEmpty, !b.manifest.sha256.isEmpty {
            caveats.append("the manifests differ (\(a.manifest.name) \(a.manifest.sha256.prefix(8)) and \(b.manifest.name) \(b.manifest.sha256.prefix(8)))")
        }
        let modeA = a.configuration?.mode ?? .warm, modeB = b.configuration?.mode ?? .warm
        if modeA != modeB { caveats.append("one result is \(modeA), the other \(modeB)") }
        return caveats + EnvironmentCheck.toolDifferences(baseline: a, candidate: b)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// How the rank tests of one comparison's rows are judged together.
///
/// Each row is a test at α; a comparison of 20 rows then calls some row of an unchanged launch
/// slower far more often than α (up to 1 − 0.99²⁰ ≈ 18% at α = 0.01). Off a tier the absolute floor
/// (`--min-change`, 2 ms) keeps the small phases from counting, so few rows can fail. On a device
/// tier every phase is stretched past that floor, and every row can: there ``holm`` keeps the chance
/// that any row of an unchanged launch is called slower or faster at α (docs/comparison.md).
public enum FamilyCorrection: String, Codable, Sendable {
    /// Each row's test at α on its own.
    case perRow = "per row"
    /// Holm's step-down over every row with a rank test: the row with the smallest p-value is judged
    /// at α / m, the next at α / (m − 1), and so on until one is not significant; it and every row
    /// after it keep no significant change.
    case holm
}

/// The rows of a comparison whose tests were judged together, and how.
public struct TestedTogether: Equatable, Sendable, Codable {
    public var correction: FamilyCorrection
    /// The rows with a rank test (m).
    public var rows: Int
    /// The chance, over all of them, that an unchanged launch has a row called slower or faster.
    public var alpha: Double
}

extension Comparison {
    /// Applies Holm's step-down at `alpha` to `rows`' rank tests (rows without a p-value, decided by
    /// their counts or added or removed, take no part): a row called slower or faster that is
    /// significant alone but not at its step's level becomes within noise when its interval lies
    /// within ± threshold, else inconclusive, and says why in its note. Returns the rows tested (m).
    static func applyHolm(_ rows: inout [ComparisonRow], alpha: Double) -> Int {
        let tested = rows.indices.compactMap { i in rows[i].p.map { (p: $0, index: i) } }.sorted { ($0.p, $0.index) < ($1.p, $1.index) }
        let m = tested.count
        for (step, row) in tested.enumerated() {
            let level = alpha / Double(m - step)
            guard row.p >= level else { continue }
            // Holm stops at the first row it cannot reject: none after it is significant either.
            for (later, rest) in tested[step...].enumerated() {
                demote(&rows[rest.index], level: alpha / Double(m - step - later), rowsTested: m, alpha: alpha)
            }
            break
        }
        return m
    }

    /// A row not rejected at its Holm `level` among `rowsTested` rows: one called slower or faster
    /// (significant at `alpha` alone) is no longer; an inconclusive one suggests the runs that would
    /// reach `level`.
    static func demote(_ row: inout ComparisonRow, level: Double, rowsTested: Int, alpha: Double) {
        guard let p = row.p, let threshold = row.threshold else { return }
        let interval = row.intervalLower.flatMap { lower in row.intervalUpper.map { (lower: lower, upper: $0) } }
        if row.verdict == .inconclusive {
            row.familyLevel = level
            estimateMoreRuns(&row, interval: interval, alpha: level, runs: row.runsEach ?? 0)
            return
        }
        guard row.verdict == .slower || row.verdict == .faster else { return }
        row.familyLevel = level
        row.note =
            "significant alone (p = \(PValueFormat.short(p))) but not among the \(rowsTested) rows tested together (Holm: p < \(PValueFormat.short(level)) needed, for \(PValueFormat.short(alpha)) over all rows)"
        if let interval, interval.lower > -threshold, interval.upper < threshold {
            row.verdict = .withinNoise
            return
        }
        row.verdict = .inconclusive
        estimateMoreRuns(&row, interval: interval, alpha: level, runs: row.runsEach ?? 0)
    }
}

/// p-values in notes: two significant digits (`0.0048`), at most nine decimals.
enum PValueFormat {
    static func short(_ p: Double) -> String {
        guard p > 0, p < 1, p.isFinite else { return DurationFormat.fixed(p, decimals: 2) }
        var decimals = 1
        while decimals < 9, p * pow(10, Double(decimals)) < 10 { decimals += 1 }
        return DurationFormat.fixed(p, decimals: decimals)
    }
}

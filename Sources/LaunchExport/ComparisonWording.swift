import LaunchCore
import LaunchStats

/// Shared wording of rows, so every format says the same thing.
public enum ComparisonWording {
    /// A time in the unit that fits (`1.25 ms`), `precision` significant digits; `-` when absent.
    public static func seconds(_ value: Double?, _ precision: Int) -> String {
        value.map { DurationFormat.format($0, digits: precision) } ?? "-"
    }

    /// A median or threshold in the metric's unit: a time, or an instruction count.
    public static func quantity(_ value: Double?, _ metric: Metric, _ precision: Int) -> String {
        guard metric == .instructions else { return seconds(value, precision) }
        return value.map { InstructionFormat.count($0) } ?? "-"
    }

    /// A signed change in the metric's unit.
    public static func change(_ value: Double?, _ metric: Metric, _ precision: Int) -> String {
        guard metric == .instructions else { return change(value, precision) }
        guard let value else { return "-" }
        return (value >= 0 ? "+" : "") + InstructionFormat.count(value)
    }

    public static func change(_ value: Double?, _ precision: Int) -> String {
        guard let value else { return "-" }
        return DurationFormat.signed(value, digits: precision)
    }

    /// How the rows were judged together, when they were (on a device tier): one line for every format.
    public static func testedTogether(_ comparison: Comparison) -> String? {
        guard let family = comparison.family, family.correction == .holm else { return nil }
        let percent = family.alpha * 100
        let level = percent == percent.rounded() ? String(Int(percent)) : SecondsFormat.format(percent, precision: 2)
        var line =
            "\(family.rows) rows judged together (Holm, \(level)% over all): on a device tier every phase is stretched past the absolute floor and can fail the check"
        // Too few runs for the first step's level: no row can fail, whatever changed.
        let needed = Comparison.runsForSignificance(alpha: family.alpha / Double(max(family.rows, 1)))
        if let runs = (comparison.rows + [comparison.total]).compactMap(\.runsEach).min(), runs < needed {
            line += "; with \(runs) run\(runs == 1 ? "" : "s") a side none can be found slower: \(needed) runs each are needed"
        }
        return line
    }

    /// `+3.0%`, `-8.0%`: always signed, a change that rounds to nothing too (`-0.0%` for a tiny fall,
    /// `+0.0%` for none), so the direction is never lost.
    public static func percent(_ value: Double?) -> String {
        guard let value else { return "-" }
        let digits = SecondsFormat.format(value, precision: 1)
        return (digits.hasPrefix("-") ? "" : value < 0 ? "-" : "+") + digits + "%"
    }

    public static func confidence(_ row: ComparisonRow) -> String {
        guard let c = row.confidence else { return "" }
        // Rounded down, so a confidence short of certainty never prints as 100%.
        let digits = c > 0.999 ? 2 : 1
        let scale = digits == 2 ? 100.0 : 10.0
        return SecondsFormat.format((c * 100 * scale).rounded(.down) / scale, precision: digits) + "%"
    }

    /// `99% CI −0.4%…+6.6%`: a row's interval in percent of the baseline median.
    public static func interval(_ row: ComparisonRow) -> String {
        guard let lower = row.intervalLower, let upper = row.intervalUpper, let base = row.baselineMedian, base > 0 else {
            return "no interval yet"
        }
        let level = SecondsFormat.format(((row.intervalLevel ?? 0.99) * 1000).rounded(.down) / 10, precision: 1)
        let levelText = level.hasSuffix(".0") ? String(level.dropLast(2)) : level
        func signed(_ value: Double) -> String { (value >= 0 ? "+" : "−") + SecondsFormat.format(abs(value), precision: 1) + "%" }
        return "\(levelText)% CI \(signed(lower / base * 100))…\(signed(upper / base * 100))"
    }

    /// `'drawing': median 31.0 ms → 34.0 ms (+3.00 ms, +9.7%), over the 5% threshold, confidence 99.98%`
    public static func regression(_ row: ComparisonRow, _ precision: Int) -> String {
        let m = row.metric
        let values =
            "\(quantity(row.baselineMedian, m, precision)) → \(quantity(row.candidateMedian, m, precision)) (\(change(row.change, m, precision)), \(percent(row.changePercent)))"
        let over = row.threshold == nil ? "" : ", over \(threshold(row, precision))"
        if row.deterministic == true { return "'\(row.path)': instructions \(values)\(over), deterministic counts" }
        if let runs = row.sequentialRuns { return "'\(row.path)': median \(values)\(over), \(interval(row)) after \(runs) runs each" }
        return "'\(row.path)': median \(m == .instructions ? "instructions " : "")\(values)\(over), confidence \(confidence(row))"
    }

    /// `'Total launch time' on iphone-3gs took 2.310s, budget 2.000s`
    public static func violation(_ v: Budget.Violation, _ precision: Int) -> String {
        switch v.measure {
        case .seconds: "'\(v.phase)' on \(v.tier) took \(seconds(v.time, precision)), budget \(seconds(v.budget, precision))"
        case .majorFaults: "'\(v.phase)' on \(v.tier) had \(Int(v.time.rounded())) major page faults, budget \(Int(v.budget))"
        case .bytesRead: "'\(v.phase)' on \(v.tier) read \(Int(v.time.rounded())) bytes, budget \(Int(v.budget))"
        }
    }
}

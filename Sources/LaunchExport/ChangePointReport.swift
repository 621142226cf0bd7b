import LaunchChangePoints
import LaunchCore

/// `history detect`'s findings, as people and machines read them: every change point found in the
/// series looked at, grouped by environment, tier, metric and target, oldest first.
public struct ChangePointReport: Sendable {
    /// Every series looked at, with its change points (possibly none).
    public var series: [SeriesChangePoints]
    public var options: DetectionOptions
    /// `--since REV`: only change points after this revision are listed (`nil`: all of them).
    public var since: String?

    public init(series: [SeriesChangePoints], options: DetectionOptions, since: String? = nil) {
        self.series = series
        self.options = options
        self.since = since
    }

    /// One change point with the series it belongs to.
    public struct Finding: Sendable {
        public var key: SeriesKey
        public var exact: Bool
        public var changePoint: ChangePoint
    }

    /// Every change point, by series key, then oldest first.
    public var findings: [Finding] {
        series.sorted { $0.key < $1.key }.flatMap { series in
            series.changePoints.map { Finding(key: series.key, exact: series.exact, changePoint: $0) }
        }
    }

    /// The line that comes first: how many change points, in how many of how many series.
    public var headline: String {
        let found = findings, stepped = Set(found.map(\.key)).count
        let scope = since.map { " after \($0)" } ?? ""
        guard !found.isEmpty else { return "no change points\(scope) in \(series.count) series" }
        let noun = found.count == 1 ? "change point" : "change points"
        return "\(found.count) \(noun)\(scope) in \(stepped) of \(series.count) series"
    }

    /// The detection settings, for the line under the headline.
    public var settings: String {
        "p ≤ \(options.maximumPValue), change ≥ \(ComparisonWording.percent(options.minimumRelativeChange * 100).dropFirst()) (instruction counts: any), "
            + "at least \(options.minimumSegmentLength) commits each side"
    }

    /// The groups of findings that share environment, tier, metric and target, in key order.
    var groups: [(title: String, findings: [Finding])] {
        var groups: [(title: String, findings: [Finding])] = []
        for finding in findings {
            let title = Self.groupTitle(finding.key, exact: finding.exact)
            if groups.last?.title == title { groups[groups.count - 1].findings.append(finding) } else { groups.append((title, [finding])) }
        }
        return groups
    }

    static func groupTitle(_ key: SeriesKey, exact: Bool) -> String {
        "\(key.target.name) · tier \(key.tier) · \(key.metric.rawValue)\(exact ? " (exact)" : "") · environment \(key.environment)"
    }

    /// A value of `key`'s metric as people read it: exact counts in full, seconds in the unit that fits, memory in MiB.
    static func value(_ value: Double, _ key: SeriesKey) -> String {
        if key.phase == SeriesKey.peakMemoryPhase { return MemoryFormat.mebibytes(value) }
        return key.metric == .instructions ? InstructionFormat.exact(value) : DurationFormat.format(value)
    }

    /// The change: a percentage, and for exact counts the difference too (`+1 (+0.0%)`).
    static func change(_ finding: Finding) -> String {
        let point = finding.changePoint
        let percent = ComparisonWording.percent(point.relativeChange.map { $0 * 100 })
        guard finding.exact else { return percent }
        let difference = point.after.median - point.before.median
        return (difference >= 0 ? "+" : "-") + InstructionFormat.exact(abs(difference)) + " (\(percent))"
    }

    /// The p-value in scientific notation when small (`3.2e-09`), `exact` for counts.
    static func confidence(_ finding: Finding) -> String {
        finding.exact ? "exact" : pValue(finding.changePoint.pValue)
    }

    static func pValue(_ p: Double) -> String {
        if p == 0 { return "0" }
        if p >= 0.001 { return SecondsFormat.format(p, precision: 4) }
        var exponent = 0
        var mantissa = p
        while mantissa < 1 {
            mantissa *= 10
            exponent -= 1
        }
        return SecondsFormat.format(mantissa, precision: 1) + "e" + (exponent < 0 ? "-" : "+") + (abs(exponent) < 10 ? "0" : "") + String(abs(exponent))
    }

    static func shortCommit(_ commit: String) -> String {
        String(commit.prefix(12))
    }
}

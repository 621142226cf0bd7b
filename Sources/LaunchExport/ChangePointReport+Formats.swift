import FoundationEssentials
import LaunchChangePoints
import LaunchCore

extension ChangePointReport {
    /// The text report: the headline, the settings, then one table per group of series.
    public func text() -> String {
        var out = headline + "\n" + settings + "\n"
        for group in groups {
            var rows = [["phase", "commit", "before", "after", "change", "p-value"]]
            for finding in group.findings {
                let point = finding.changePoint
                rows.append([
                    PlainText.oneLine(finding.key.phase), PlainText.oneLine(Self.shortCommit(point.commit)),
                    Self.value(point.before.median, finding.key), Self.value(point.after.median, finding.key),
                    Self.change(finding), Self.confidence(finding)
                ])
            }
            out += "\n" + PlainText.oneLine(group.title) + "\n" + TrendReport.indented(TextTable.render(rows))
        }
        return out
    }

    /// The Markdown report (a job summary): the headline, then a table per group.
    public func markdown() -> String {
        var out = "### " + MarkdownText.escape(headline) + "\n\n" + MarkdownText.escape(settings) + "\n"
        for group in groups {
            out += "\n**" + MarkdownText.escape(group.title) + "**\n\n"
            out += "| phase | commit | before | after | change | p-value |\n|:--|:--|--:|--:|--:|--:|\n"
            for finding in group.findings {
                let point = finding.changePoint
                let cells = [
                    finding.key.phase, Self.shortCommit(point.commit), Self.value(point.before.median, finding.key),
                    Self.value(point.after.median, finding.key), Self.change(finding), Self.confidence(finding)
                ].map(MarkdownText.escape)
                out += "| " + cells.joined(separator: " | ") + " |\n"
            }
        }
        return out
    }

    /// The JSON report: the settings, how many series were looked at, and every change point with
    /// its series' key (docs/history.md describes each field).
    public func json() throws(ExportError) -> String {
        let document = Document(
            headline: headline, since: since, seriesCount: series.count,
            options: .init(
                maximumPValue: options.maximumPValue, minimumRelativeChange: options.minimumRelativeChange,
                minimumSegmentLength: options.minimumSegmentLength),
            changePoints: findings.map(Document.Entry.init))
        return try jsonText(document)
    }

    struct Document: Encodable {
        struct Options: Encodable {
            var maximumPValue: Double
            var minimumRelativeChange: Double
            var minimumSegmentLength: Int
        }

        struct Side: Encodable {
            var median: Double
            var points: Int
        }

        struct Entry: Encodable {
            var environment, tier, metric, target, phase: String
            var index: Int
            var commit: String
            var previousCommit: String
            var before: Side
            var after: Side
            /// `null` when the median before is 0.
            var relativeChange: NullWhenAbsent<Double>
            var pValue: Double
            var exact: Bool

            init(_ finding: Finding) {
                let key = finding.key, point = finding.changePoint
                environment = key.environment
                tier = key.tier
                metric = key.metric.rawValue
                target = key.target.name
                phase = key.phase
                index = point.index
                commit = point.commit
                previousCommit = point.previousCommit
                before = Side(median: point.before.median, points: point.before.points)
                after = Side(median: point.after.median, points: point.after.points)
                relativeChange = NullWhenAbsent(point.relativeChange)
                pValue = point.pValue
                exact = finding.exact
            }
        }

        var headline: String
        var since: String?
        var seriesCount: Int
        var options: Options
        var changePoints: [Entry]
    }
}

/// An optional written as `null` when absent, where a synthesized encoding would leave its key out.
struct NullWhenAbsent<Wrapped: Encodable>: Encodable {
    var value: Wrapped?

    init(_ value: Wrapped?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

import LaunchStats

/// The diff as a GitHub-flavoured Markdown table, for pull-request comments and job summaries.
public struct ComparisonMarkdown: ComparisonExporter {
    public init() {}

    public func render(_ comparison: Comparison, context: ComparisonContext) -> String {
        let p = context.precision
        let regressions = comparison.regressions
        var text = "### launchprof: \(escape(context.baselineLabel)) → \(escape(context.candidateLabel))\n\n"
        for caveat in context.caveats { text += "> :warning: caveat: \(escape(caveat))\n\n" }
        if regressions.isEmpty && context.violations.isEmpty {
            text += "No launch regression.\n\n"
        } else {
            for row in regressions { text += "- :x: regression in \(escape(FunctionReport.regression(row, context)))\n" }
            for v in context.violations { text += "- :x: over budget: \(escape(ComparisonWording.violation(v, p)))\n" }
            text += "\n"
        }
        text += "| Phase | \(escape(context.baselineLabel)) | \(escape(context.candidateLabel)) | Change | % | Verdict |\n"
        text += "|---|---:|---:|---:|---:|---|\n"
        for row in comparison.rows + [comparison.total] {
            let isTotal = row.path == comparison.total.path
            let indent = String(repeating: "&nbsp;&nbsp;", count: isTotal ? 0 : row.depth)
            let name = isTotal ? "**\(escape(row.name))**" : indent + escape(row.name)
            text +=
                "| \(name) | \(ComparisonWording.quantity(row.baselineMedian, row.metric, p)) | \(ComparisonWording.quantity(row.candidateMedian, row.metric, p)) "
                + "| \(ComparisonWording.change(row.change, row.metric, p)) | \(ComparisonWording.percent(row.changePercent)) | \(ComparisonWording.verdict(row)) |\n"
        }
        if let line = ComparisonWording.testedTogether(comparison) { text += "\n\(escape(line.prefix(1).uppercased() + line.dropFirst())).\n" }
        return text
    }

    func escape(_ text: String) -> String { MarkdownText.escape(text) }
}

import LaunchCore

import LaunchStats

/// The check as JUnit XML, for GitLab, Jenkins and other CI systems: one test case per phase and
/// one for the total; a regression or a blown budget is a failure.
public struct JUnitReport: ComparisonExporter {
    public init() {}

    public func render(_ comparison: Comparison, context: ComparisonContext) -> String {
        let p = context.precision
        var cases: [String] = []
        var failures = 0
        for row in comparison.rows + [comparison.total] {
            var messages: [String] = []
            if row.verdict == .slower { messages.append("regression in " + FunctionReport.regression(row, context)) }
            for v in context.violations where v.phase == row.path || v.phase == row.name {
                messages.append("over budget: " + ComparisonWording.violation(v, p))
            }
            // Seconds, as JUnit wants them; a phase the candidate lacks has no time (never 0).
            let time = row.metric == .time ? row.candidateMedian.map { " time=\"\(SecondsFormat.format($0, precision: 6))\"" } ?? "" : ""
            var element = "    <testcase classname=\"launchprof.\(escape(context.candidateLabel))\" name=\"\(escape(row.path))\"\(time)"
            if messages.isEmpty {
                element += ">\n      <system-out>\(escape(ComparisonWording.verdict(row)))</system-out>\n    </testcase>"
            } else {
                failures += 1
                let message = escape(messages.joined(separator: "; "))
                element += ">\n      <failure message=\"\(message)\" type=\"launch-regression\">\(message)</failure>\n    </testcase>"
            }
            cases.append(element)
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="launchprof" tests="\(cases.count)" failures="\(failures)">
              <testsuite name="launchprof check: \(escape(context.baselineLabel)) vs \(escape(context.candidateLabel))" tests="\(cases.count)" failures="\(failures)" errors="0">
            \(properties(context.caveats))\(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>

            """
    }

    func escape(_ text: String) -> String { XMLText.escape(text) }

    /// The caveats as the suite's properties (`caveat`, once each), ahead of its test cases.
    func properties(_ caveats: [String]) -> String {
        guard !caveats.isEmpty else { return "" }
        let items = caveats.map { "      <property name=\"caveat\" value=\"\(escape($0))\"/>\n" }.joined()
        return "    <properties>\n\(items)    </properties>\n"
    }
}

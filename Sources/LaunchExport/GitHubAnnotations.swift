import LaunchCore
import LaunchStats

/// GitHub Actions workflow commands: one `::error` annotation per regression or blown budget.
public struct GitHubAnnotations: ComparisonExporter {
    public init() {}

    public func render(_ comparison: Comparison, context: ComparisonContext) -> String {
        let p = context.precision
        var lines = context.caveats.map { "::warning title=Launch comparison caveat::\(escapeData($0))" }
        for row in comparison.regressions {
            lines.append("::error title=\(escapeProperty("Launch regression: " + row.path))::\(escapeData(FunctionReport.regression(row, context)))")
        }
        for v in context.violations {
            lines.append("::error title=\(escapeProperty("Launch budget: " + v.phase))::\(escapeData(ComparisonWording.violation(v, p)))")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Message escaping of GitHub's workflow commands: `%`, CR and LF (scalar by scalar, so that a
    /// CR LF pair, one Swift character, is escaped too).
    func escapeData(_ text: String) -> String {
        ScalarEscaping.escape(text) { scalar in
            switch scalar {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            default: nil
            }
        }
    }

    /// Property escaping: as messages, plus `:` and `,`.
    func escapeProperty(_ text: String) -> String {
        ScalarEscaping.escape(escapeData(text)) { scalar in
            switch scalar {
            case ":": "%3A"
            case ",": "%2C"
            default: nil
            }
        }
    }
}

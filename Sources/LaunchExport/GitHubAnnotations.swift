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
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Property escaping: as messages, plus `:` and `,`.
    func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

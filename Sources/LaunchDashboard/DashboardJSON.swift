import LaunchCore

#if canImport(Glibc)
import Glibc
#endif

/// The dashboard's data as JSON that can sit inside an HTML `<script>` element: besides JSON's own
/// escapes, `<`, `>` and `&` are written as `\u003c`, `\u003e` and `\u0026` (so neither `</script>`
/// nor `<!--` can appear), and U+2028 and U+2029 as `\u2028` and `\u2029` (line terminators to
/// older JavaScript). The text parses back to the same values with any JSON parser.
public enum DashboardJSON {
    /// Format version of the embedded data (`version`), raised when its shape changes.
    public static let version = 1

    public static func encode(_ data: DashboardData) -> String {
        var out = "{\"format\":\"launchprof-dashboard\",\"version\":\(version),\"title\":\(string(data.title)),\"source\":\(string(data.source))"
        out += ",\"environments\":{"
        out += data.environments.keys.sorted().map { "\(string($0)):\(string(data.environments[$0]!))" }.joined(separator: ",")
        out += "},\"commits\":["
        out += data.commits.map(commit).joined(separator: ",")
        out += "],\"groups\":["
        out += data.groups.map(group).joined(separator: ",")
        return out + "]}"
    }

    static func commit(_ commit: DashboardData.Commit) -> String {
        "{\"hash\":\(string(commit.hash)),\"parent\":\(commit.parent.map(string) ?? "null"),\"date\":\(commit.date.map(string) ?? "null")}"
    }

    static func group(_ group: DashboardData.Group) -> String {
        var out = "{\"environment\":\(string(group.environment)),\"tier\":\(string(group.tier)),\"metric\":\(string(group.metric))"
        out += ",\"target\":\(string(group.target)),\"commits\":[" + group.commits.map(String.init).joined(separator: ",") + "],\"series\":["
        return out + group.series.map(series).joined(separator: ",") + "]}"
    }

    static func series(_ series: DashboardData.Series) -> String {
        var out = "{\"phase\":\(string(series.phase)),\"unit\":\(string(series.unit)),\"exact\":\(series.exact)"
        out += ",\"values\":[" + series.values.map { $0.map(number) ?? "null" }.joined(separator: ",") + "]"
        // One number when every commit has a value of as many runs (the usual case), else one per commit.
        let constant = series.values.allSatisfy { $0 != nil } && series.runs.allSatisfy { $0 == series.runs.first }
        out += ",\"runs\":" + (constant ? String(series.runs.first ?? 0) : "[" + series.runs.map(String.init).joined(separator: ",") + "]")
        out += ",\"steps\":["
        out += series.steps.map(step).joined(separator: ",")
        return out + "]}"
    }

    static func step(_ step: DashboardData.Step) -> String {
        "{\"position\":\(step.position),\"commit\":\(string(step.commit)),\"before\":\(number(step.before)),\"after\":\(number(step.after))"
            + ",\"change\":\(step.change.map(number) ?? "null"),\"p\":\(number(step.pValue))}"
    }

    /// A finite number as JSON: whole numbers (instruction counts, bytes) exactly, others to 7
    /// significant digits (a tenth of a microsecond in a second: far below any run's noise), which
    /// keeps 10,000 commits × 50 series near 6 MB; `null` for NaN and infinities, which the
    /// detector's points never hold.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        let scale = pow(10, 6 - floor(log10(abs(value))))
        let rounded = (value * scale).rounded() / scale
        return rounded.isFinite ? "\(rounded)" : "\(value)"
    }

    /// `text` as a JSON string literal safe inside `<script>`.
    public static func string(_ text: String) -> String {
        ScalarEscaping.escape(JSONText.quoted(text)) { scalar in
            switch scalar {
            case "<": "\\u003c"
            case ">": "\\u003e"
            case "&": "\\u0026"
            case "\u{2028}": "\\u2028"
            case "\u{2029}": "\\u2029"
            default: nil
            }
        }
    }
}

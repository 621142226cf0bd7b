import LaunchCore
import LaunchStats

/// The classic report: one `Time for <phase>: …s` line per phase in the order they ran, children
/// indented beneath their parent, lazy phases as `deferred`, then `Total launch time: …s`.
///
/// ```
/// Time for Init: 0.89s
/// Time for building layouts: 0.91s
/// Time for loading themes: 0.45s
/// Time for drawing: 1.43s
/// Total launch time: 3.68s
/// ```
/// With several runs each time is the median, followed by `± MAD`.
public struct TextReportExporter: ResultExporter {
    public static let formatName = "text"
    public var options: ReportOptions

    public init(options: ReportOptions = ReportOptions()) {
        self.options = options
    }

    public func render(_ result: LaunchResult) -> String {
        let table = PhaseTable(result)
        let multi = result.runs.count > 1
        var lines: [String] = []
        if multi {
            lines.append("(\(result.runs.count) runs: median ± median absolute deviation)")
        }
        func time(_ values: [Double]) -> String {
            guard let s = Summary(values) else { return "n/a" }
            let median = SecondsFormat.seconds(s.median, precision: options.precision)
            return multi ? "\(median) ± \(SecondsFormat.seconds(s.mad, precision: options.precision))" : median
        }
        for row in table.rows where !row.afterLaunch {
            lines.append(String(repeating: "  ", count: row.depth) + "Time for \(row.name): \(time(row.durations))")
        }
        for name in table.deferred {
            var line = "Time for \(name): deferred"
            if let touched = table.rows.first(where: { $0.afterLaunch && $0.depth == 0 && $0.name == name }) {
                line += ", \(time(touched.durations)) on first use"
            }
            lines.append(line)
        }
        lines.append("Total launch time: \(time(table.totals))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line of counters that explain time, e.g. `19 keys laid out · 4 images decoded`, from the first run.
    public func countersLine(_ result: LaunchResult) -> String? {
        guard let counters = result.runs.first?.counters, !counters.isEmpty else { return nil }
        return counters.map { "\(Self.grouped($0.value)) \($0.name)" }.joined(separator: " · ")
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }
}

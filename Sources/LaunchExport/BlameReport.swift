import LaunchCore
import LaunchStats

/// `report --blame`: phases sorted by self time (time not spent in child phases), with inclusive time
/// beside it, like `systemd-analyze blame` and `python -X importtime`. Medians over the runs.
public struct BlameReport: ResultExporter {
    public var options: ReportOptions

    public init(options: ReportOptions = ReportOptions()) {
        self.options = options
    }

    public func render(_ result: LaunchResult) -> String {
        let p = options.precision
        let rows = PhaseAnalysis.selfTimeMedians(result.runs).map { ($0.path, $0.selfTime, $0.inclusive) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        guard !rows.isEmpty else { return "No phases to blame: the runs reported none (docs/protocol.md).\n" }
        let selfWidth = max(4, rows.map { DurationFormat.format($0.1, digits: p).count }.max() ?? 0)
        let inclusiveWidth = max(9, rows.map { DurationFormat.format($0.2, digits: p).count }.max() ?? 0)
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        var text = "\(pad("self", selfWidth))  \(pad("inclusive", inclusiveWidth))  phase\n"
        for (path, selfTime, total) in rows {
            text +=
                "\(pad(DurationFormat.format(selfTime, digits: p), selfWidth))  \(pad(DurationFormat.format(total, digits: p), inclusiveWidth))  \(PlainText.oneLine(path))\n"
        }
        return text
    }
}

import LaunchCore
import LaunchStats

/// `report --blame`: phases sorted by self time (time not spent in child phases), with inclusive time
/// beside it, like `systemd-analyze blame` and `python -X importtime`. Medians over the runs.
public struct BlameReport: ResultExporter {
    public static let formatName = "blame"
    public var options: ReportOptions

    public init(options: ReportOptions = ReportOptions(precision: 3)) {
        self.options = options
    }

    public func render(_ result: LaunchResult) -> String {
        var selfTimes: [String: [Double]] = [:]
        var inclusive: [String: [Double]] = [:]
        var order: [String] = []
        for run in result.runs {
            let selfs = PhaseAnalysis.selfTimes(run)
            var paths: [String] = []
            for (i, phase) in run.phases.enumerated() {
                let path = phase.parent.map { paths[$0] + "/" + phase.name } ?? phase.name
                paths.append(path)
                if selfTimes[path] == nil { order.append(path) }
                selfTimes[path, default: []].append(selfs[i])
                inclusive[path, default: []].append(phase.duration)
            }
        }
        let p = options.precision
        let rows = order.map { ($0, Summary(selfTimes[$0]!)!.median, Summary(inclusive[$0]!)!.median) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        let selfWidth = max(4, rows.map { SecondsFormat.seconds($0.1, precision: p).count }.max() ?? 0)
        let inclusiveWidth = max(9, rows.map { SecondsFormat.seconds($0.2, precision: p).count }.max() ?? 0)
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        var text = "\(pad("self", selfWidth))  \(pad("inclusive", inclusiveWidth))  phase\n"
        for (path, selfTime, total) in rows {
            text +=
                "\(pad(SecondsFormat.seconds(selfTime, precision: p), selfWidth))  \(pad(SecondsFormat.seconds(total, precision: p), inclusiveWidth))  \(PlainText.oneLine(path))\n"
        }
        return text
    }
}

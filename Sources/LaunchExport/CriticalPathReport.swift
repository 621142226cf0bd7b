import LaunchCore
import LaunchStats

/// `report --critical-path`: the chain of phases that decided the total, like
/// `systemd-analyze critical-chain`, with the time each began and how long it took.
public struct CriticalPathReport: ResultExporter {
    public static let formatName = "critical-path"
    public var options: ReportOptions
    /// The run to analyse (1-based); the median run when `nil`.
    public var run: Int?

    public init(options: ReportOptions = ReportOptions(precision: 3), run: Int? = nil) {
        self.options = options
        self.run = run
    }

    public func render(_ result: LaunchResult) throws -> String {
        guard let run = try selectRun(result, run) else { return "" }
        let p = options.precision
        let chain = PhaseAnalysis.criticalPath(run)
        var text = "Critical path of run \(run.index) (total \(SecondsFormat.seconds(run.total, precision: p))): each phase waited for the one above it.\n"
        for (step, i) in chain.enumerated() {
            let phase = run.phases[i]
            let prefix = step == 0 ? "" : String(repeating: " ", count: 2 * (step - 1)) + "└─ "
            text += "\(prefix)\(phase.name) @\(SecondsFormat.seconds(phase.start, precision: p)) +\(SecondsFormat.seconds(phase.duration, precision: p))\n"
        }
        return text
    }
}

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
            text += "\(pad(SecondsFormat.seconds(selfTime, precision: p), selfWidth))  \(pad(SecondsFormat.seconds(total, precision: p), inclusiveWidth))  \(path)\n"
        }
        return text
    }
}

/// The run numbered `number`, or the median run; `nil` when there are no runs.
func selectRun(_ result: LaunchResult, _ number: Int?) throws -> RunRecord? {
    guard !result.runs.isEmpty else { return nil }
    if let number {
        guard let run = result.runs.first(where: { $0.index == number }) else {
            throw ExportError("no run \(number) in the result (it has runs 1…\(result.runs.count))")
        }
        return run
    }
    return result.runs[PhaseAnalysis.medianRun(result)]
}

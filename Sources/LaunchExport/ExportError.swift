import LaunchCore
import LaunchStats

/// LaunchExport's one error: a result file that cannot be read or stored (`path` names it), or a
/// result or format an exporter cannot render. One renderer, ``description``: `path: reason`.
public struct ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file the error is about, when there is one.
    public var path: String?
    public var reason: String

    public var description: String { path.map { "\($0): \(reason)" } ?? reason }

    /// An error about the file at `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// An error about no file in particular (a result or a format an exporter cannot render).
    public init(_ reason: String) {
        self.path = nil
        self.reason = reason
    }
}

/// The run numbered `number`, or the median run; `nil` when there are no runs (for the exporters that
/// draw or analyse one run).
func selectRun(_ result: LaunchResult, _ number: Int?) throws(ExportError) -> RunRecord? {
    if let number, result.runs.isEmpty { throw ExportError(runOutOfRange(result, number)) }
    guard !result.runs.isEmpty else { return nil }
    if let number {
        guard let run = result.runs.first(where: { $0.index == number }) else { throw ExportError(runOutOfRange(result, number)) }
        return run
    }
    return result.runs[PhaseAnalysis.medianRun(result)]
}

/// The message for a `--run` selection the result doesn't hold, naming the runs it has.
public func runOutOfRange(_ result: LaunchResult, _ number: Int) -> String {
    let indices = result.runs.map(\.index)
    guard let low = indices.min(), let high = indices.max() else { return "--run \(number) is out of range: the result has no runs" }
    let (width, overflow) = high.subtractingReportingOverflow(low)
    let contiguous = !overflow && width == indices.count - 1 && Set(indices).count == indices.count
    let range = contiguous ? "\(low)…\(high)" : "numbered from \(low) to \(high)"
    return "--run \(number) is out of range: the result has \(indices.count) run\(indices.count == 1 ? "" : "s"), \(range)"
}

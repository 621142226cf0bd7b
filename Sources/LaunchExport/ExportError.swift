import LaunchCore
import LaunchStats

/// A result an exporter cannot render.
public struct ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
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

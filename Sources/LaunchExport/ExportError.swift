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
    guard !result.runs.isEmpty else { return nil }
    if let number {
        guard let run = result.runs.first(where: { $0.index == number }) else {
            throw ExportError("no run \(number) in the result (it has runs 1…\(result.runs.count))")
        }
        return run
    }
    return result.runs[PhaseAnalysis.medianRun(result)]
}

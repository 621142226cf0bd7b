import LaunchCore
import LaunchResults
import LaunchStats

/// LaunchExport's one error: a format a command does not have, or a result an exporter cannot
/// render. One renderer, ``description`` (the CLI adds the file when there is one).
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `text` names no format of `subject` (`--format`).
    case notAFormat(text: String, subject: OutputFormat.Subject)
    /// A comparison of strategies has no `format` form (`compare --format`).
    case noStrategiesForm(format: OutputFormat)
    /// `--run run` selects no run of the result; `runs` are the run numbers it has.
    case runOutOfRange(run: Int, runs: [Int])
    /// A timeline needs a run and the result has none.
    case noRunsToDraw
    /// A function report of a result recorded without `--functions`.
    case noFunctionProfiles
    /// A function report of `phase`, which has no profile; `phasesWithProfiles` have one.
    case noFunctionProfile(phase: String, phasesWithProfiles: [String])
    /// A JSON document (a result, a comparison, a report) that holds a value JSON cannot hold.
    case unencodable(PrettyJSON.Unencodable)

    public var description: String {
        switch self {
        case .notAFormat(let text, let subject): return "'\(text)' is not an output format of this command: use \(subject.list)"
        case .noStrategiesForm(let format):
            return "a comparison of strategies has no \(format.rawValue) form: use \(OutputFormat.Subject.strategies.list)"
        case .runOutOfRange(let number, let runs): return Self.runOutOfRange(number, runs)
        case .noRunsToDraw: return "the result has no runs to draw"
        case .noFunctionProfiles: return "the result has no function profiles: make it with --metric instructions --functions"
        case .noFunctionProfile(let phase, let phases):
            let list = phases.map { "'\(PlainText.oneLine($0))'" }.joined(separator: ", ")
            return "no phase '\(PlainText.oneLine(phase))' has a function profile; the phases with one are \(list)"
        case .unencodable(let refusal): return "the document \(refusal)"
        }
    }

    /// The message for a `--run` selection the result doesn't hold, naming the runs it has.
    private static func runOutOfRange(_ number: Int, _ indices: [Int]) -> String {
        guard let low = indices.min(), let high = indices.max() else { return "--run \(number) is out of range: the result has no runs" }
        let (width, overflow) = high.subtractingReportingOverflow(low)
        let contiguous = !overflow && width == indices.count - 1 && Set(indices).count == indices.count
        let range = contiguous ? "\(low)…\(high)" : "numbered from \(low) to \(high)"
        return "--run \(number) is out of range: the result has \(indices.count) run\(indices.count == 1 ? "" : "s"), \(range)"
    }
}

/// `value` as a JSON document (``PrettyJSON``), for the exporters that write one.
func jsonText<Value: Encodable>(_ value: Value) throws(ExportError) -> String {
    do { return try PrettyJSON.text(value) } catch { throw .unencodable(error) }
}

/// The run numbered `number`, or the median run; `nil` when there are no runs (for the exporters that
/// draw or analyse one run).
func selectRun(_ result: LaunchResult, _ number: Int?) throws(ExportError) -> RunRecord? {
    if let number, !result.runs.contains(where: { $0.index == number }) {
        throw .runOutOfRange(run: number, runs: result.runs.map(\.index))
    }
    guard let number else { return result.runs.isEmpty ? nil : result.runs[PhaseAnalysis.medianRun(result)] }
    return result.runs.first(where: { $0.index == number })
}

import LaunchCore
import LaunchStats

/// `report --critical-path`: the chain of phases that decided the total, like
/// `systemd-analyze critical-chain`, with the time each began and how long it took.
///
/// Each step is indented two spaces more than the one above it, up to ``maximumIndentSteps``; deeper
/// steps keep that indentation, so a chain of 100,000 phases prints in linear, not quadratic, size.
public struct CriticalPathReport: ResultExporter {
    /// Steps past this many keep the same indentation.
    public static let maximumIndentSteps = 32
    public var options: ReportOptions
    /// The run to analyse (1-based); the median run when `nil`.
    public var run: Int?

    public init(options: ReportOptions = ReportOptions(), run: Int? = nil) {
        self.options = options
        self.run = run
    }

    public func render(_ result: LaunchResult) throws(ExportError) -> String {
        guard let run = try selectRun(result, run) else { return "" }
        let p = options.precision
        let chain = PhaseAnalysis.criticalPath(run)
        var text = "Critical path of run \(run.index) (total \(DurationFormat.format(run.total, digits: p))): each phase waited for the one above it.\n"
        for (step, i) in chain.enumerated() {
            let phase = run.phases[i]
            let prefix = step == 0 ? "" : String(repeating: " ", count: 2 * min(step - 1, Self.maximumIndentSteps)) + "└─ "
            text +=
                "\(prefix)\(PlainText.oneLine(phase.name)) @\(DurationFormat.format(phase.start, digits: p)) +\(DurationFormat.format(phase.duration, digits: p))\n"
        }
        return text
    }
}

import LaunchFunctions
import LaunchStats

/// Renders a ``Comparison`` of two results in one format; one type per format, in its own file.
public protocol ComparisonExporter: Sendable {
    func render(_ comparison: Comparison, context: ComparisonContext) throws(ExportError) -> String
}

/// What every comparison format needs besides the rows.
public struct ComparisonContext: Sendable, Equatable {
    /// How A and B are called: file names or revisions.
    public var baselineLabel: String
    public var candidateLabel: String
    public var precision: Int
    /// Budgets the candidate exceeds (shown by the formats that show budgets).
    public var violations: [Budget.Violation]
    /// What makes the two sides less comparable (another host, tier, toolchain, manifest…:
    /// ``Comparison/caveats(baseline:candidate:)``), shown above the verdict by every format.
    public var caveats: [String]
    /// By phase path, the functions that changed each changed phase, when both sides had function
    /// profiles (`--functions`): the text table names them, the one-line formats the top one.
    public var functionChanges: [String: PhaseFunctionChanges] = [:]

    public init(
        baselineLabel: String = "A", candidateLabel: String = "B", precision: Int = 3, violations: [Budget.Violation] = [],
        caveats: [String] = []
    ) {
        self.baselineLabel = baselineLabel
        self.candidateLabel = candidateLabel
        self.precision = precision
        self.violations = violations
        self.caveats = caveats
    }
}

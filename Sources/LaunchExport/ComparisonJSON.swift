import FoundationEssentials
import LaunchStats

/// The diff as JSON: labels, every row with medians, change, verdict, p-value and interval, the total,
/// and budget violations.
public struct ComparisonJSON: ComparisonExporter {
    public init() {}

    struct Document: Encodable {
        var baseline: String
        var candidate: String
        /// `true` when interleaved runs were compared in pairs (Wilcoxon signed-rank).
        var paired: Bool
        /// How the rows' tests were judged together (on a device tier: Holm over `rows` rows at
        /// `alpha`); absent when each row was judged alone.
        var testedTogether: TestedTogether?
        var rows: [ComparisonRow]
        var total: ComparisonRow
        var regressions: [String]
        var overBudget: [Violation]
        /// ``ComparisonContext/caveats``.
        var caveats: [String]
        /// By phase path, the functions that changed each changed phase (both sides with `--functions`);
        /// absent without function profiles.
        var functions: [String: [FunctionChangeJSON]]?
    }

    /// One function's change in a phase (docs/functions.md).
    struct FunctionChangeJSON: Encodable {
        var name: String
        /// `true` for the measured program's own code, `false` for a system library's.
        var program: Bool
        var baselineSelf: Int
        var candidateSelf: Int
        var selfChange: Int
        /// In percent of the baseline's self count; absent for a function new to the phase.
        var selfPercent: Double?
    }

    struct Violation: Encodable {
        var phase: String
        var tier: String
        var time: Double
        var budget: Double
        /// `majorFaults` or `bytesRead` for a counter budget (``time`` is then the count); absent for seconds.
        var measure: String?
    }

    public func render(_ comparison: Comparison, context: ComparisonContext) throws(ExportError) -> String {
        let document = Document(
            baseline: context.baselineLabel, candidate: context.candidateLabel, paired: comparison.paired,
            testedTogether: comparison.family, rows: comparison.rows, total: comparison.total,
            regressions: comparison.regressions.map(\.path),
            overBudget: context.violations.map {
                Violation(phase: $0.phase, tier: $0.tier, time: $0.time, budget: $0.budget, measure: $0.measure == .seconds ? nil : $0.measure.rawValue)
            },
            caveats: context.caveats,
            functions: context.functionChanges.isEmpty
                ? nil
                : context.functionChanges.mapValues { phase in
                    phase.functions.map {
                        FunctionChangeJSON(
                            name: $0.name, program: $0.inProgram, baselineSelf: $0.baselineSelf, candidateSelf: $0.candidateSelf,
                            selfChange: $0.selfChange, selfPercent: $0.selfPercent)
                    }
                })
        return try jsonText(document)
    }
}

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
        var rows: [ComparisonRow]
        var total: ComparisonRow
        var regressions: [String]
        var overBudget: [Violation]
        /// ``ComparisonContext/caveats``.
        var caveats: [String]
    }

    struct Violation: Encodable {
        var phase: String
        var tier: String
        var time: Double
        var budget: Double
    }

    public func render(_ comparison: Comparison, context: ComparisonContext) throws -> String {
        let document = Document(
            baseline: context.baselineLabel, candidate: context.candidateLabel, paired: comparison.paired, rows: comparison.rows, total: comparison.total,
            regressions: comparison.regressions.map(\.path),
            overBudget: context.violations.map { Violation(phase: $0.phase, tier: $0.tier, time: $0.time, budget: $0.budget) },
            caveats: context.caveats)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }
}

import LaunchCore
import LaunchFunctions
import LaunchStats

/// The words and tables of function profiles (`--functions`, docs/functions.md): the top functions
/// under a phase's line, one phase's whole table (`report --functions PHASE`), and the functions that
/// changed a phase in a comparison.
public enum FunctionReport {
    /// The default of `--top`: functions listed under each phase.
    public static let defaultTop = 5

    /// The `top` functions of `phase` with the most self cost (those with any), indented under a
    /// phase line of `depth`: in instructions
    /// `      1.2 M self  48.0%  Canvas.fillRoundedRect(_:radius:paint:)  (1.3 M inclusive, 96 calls)`,
    /// in samples `      41 samples self  34.2%  Canvas.blit(_:at:x:y:)  (52 inclusive)`.
    public static func topLines<Unit>(_ phase: PhaseFunctionCosts<Unit>?, top: Int, depth: Int) -> [String] {
        guard let phase else { return [] }
        let indent = String(repeating: "  ", count: depth + 2)
        return phase.functions.prefix(max(0, top)).filter { $0.selfCost > 0 }.map { cost in
            "\(indent)\(amount(cost.selfCost, Unit.self)) self  \(share(cost.selfCost, of: phase.total))  \(name(cost, limit: nameLimit))  (\(inclusive(cost)))"
        }
    }

    /// A count in `unit`: `1.2 M` (instructions), `41 samples`.
    static func amount<Unit: CostUnit>(_ count: Int, _ unit: Unit.Type) -> String {
        unit == SampleUnit.self ? SampleReport.samples(count) : InstructionFormat.count(Double(count))
    }

    /// `1.3 M inclusive, 96 calls` (instructions), `52 inclusive` (samples).
    static func inclusive<Unit>(_ cost: FunctionCost<Unit>) -> String {
        Unit.self == SampleUnit.self
            ? "\(TextReportExporter.grouped(cost.inclusiveCost)) inclusive"
            : "\(InstructionFormat.count(Double(cost.inclusiveCost))) inclusive" + (cost.calls.map { ", \(calls($0))" } ?? "")
    }

    /// The most characters of a name in a one-line form (a C++ lambda's can run to a thousand);
    /// `report --functions` prints names whole.
    public static let nameLimit = 120

    /// A function's name on one line (cut after `limit` characters with `…`), `[system]` after a system library's.
    public static func name<Unit>(_ cost: FunctionCost<Unit>, limit: Int = .max) -> String {
        PlainText.clipped(cost.name, limit: limit) + (cost.inProgram ? "" : " [system]")
    }

    /// `1 call`, `2,490 calls`.
    static func calls(_ count: Int) -> String {
        "\(TextReportExporter.grouped(count)) call\(count == 1 ? "" : "s")"
    }

    /// `48.0%`: `part` in percent of `whole`.
    static func share(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "-" }
        return SecondsFormat.format(Double(part) / Double(whole) * 100, precision: 1) + "%"
    }

    /// One phase's whole table: every function the result kept, the most self instructions first.
    public static func table(_ phase: PhaseFunctions) -> String {
        var rows = [["self", "%", "inclusive", "calls", "function"]]
        for cost in phase.functions {
            rows.append([
                TextReportExporter.grouped(cost.selfCost), share(cost.selfCost, of: phase.total),
                TextReportExporter.grouped(cost.inclusiveCost), TextReportExporter.grouped(cost.calls ?? 0), name(cost)
            ])
        }
        var text = "Functions of \(PlainText.oneLine(phase.phase)): \(TextReportExporter.grouped(phase.total)) instructions"
        text += phase.functionCount > phase.functions.count ? ", the \(phase.functions.count) of \(phase.functionCount) functions with the most\n" : "\n"
        return text + TextTable.render(rows)
    }

    /// `Canvas.fillRoundedRect(_:radius:paint:) +1.2 M (+38.0%, self)`: one function's change.
    public static func change(_ change: FunctionChange) -> String {
        let amount = (change.selfChange >= 0 ? "+" : "") + InstructionFormat.count(Double(change.selfChange))
        let percent = change.selfPercent.map { ComparisonWording.percent($0) } ?? (change.baselineListed ? "new" : "at least, not listed before")
        let where_ = change.inProgram ? "self" : "self, system"
        return "\(PlainText.clipped(change.name, limit: nameLimit)) \(amount) (\(percent), \(where_))"
    }

    /// `drawing +2.1% (+1.2 M): Canvas.fillRoundedRect(_:radius:paint:) +1.2 M (+38.0%, self), …`
    public static func attribution(_ row: ComparisonRow, _ changes: PhaseFunctionChanges) -> String {
        let head = "\(PlainText.oneLine(row.path)) \(ComparisonWording.percent(row.changePercent)) (\(ComparisonWording.change(row.change, .instructions, 3)))"
        guard !changes.functions.isEmpty else { return head + ": no function's own count changed" }
        return head + ": " + changes.functions.map(change).joined(separator: ", ")
    }

    /// For each row of `comparison` that changed (slower or faster: its verdict; total excluded) with a
    /// profile on both sides, the functions that changed it, at most `top` each.
    public static func changes(
        _ comparison: Comparison, baseline: FunctionProfiles?, candidate: FunctionProfiles?, top: Int
    ) -> [String: PhaseFunctionChanges] {
        guard let baseline, let candidate else { return [:] }
        var out: [String: PhaseFunctionChanges] = [:]
        for row in comparison.rows where row.verdict == .slower || row.verdict == .faster {
            if let changes = FunctionDiff.changes(phase: row.path, baseline: baseline, candidate: candidate, limit: top) { out[row.path] = changes }
        }
        return out
    }

    /// The attribution lines of `context` for `comparison`'s changed rows, in the rows' order.
    public static func attributionLines(_ comparison: Comparison, _ context: ComparisonContext) -> [String] {
        comparison.rows.compactMap { row in context.functionChanges[row.path].map { attribution(row, $0) } }
    }

    /// A regression's sentence (``ComparisonWording/regression(_:_:)``) followed by its top function,
    /// when both sides had function profiles: `…; top function: Canvas.fillRoundedRect(…) +1.2 M (+38.0%, self)`.
    public static func regression(_ row: ComparisonRow, _ context: ComparisonContext) -> String {
        ComparisonWording.regression(row, context.precision) + (topChange(row, context).map { "; top function: " + $0 } ?? "")
    }

    /// `Canvas.fillRoundedRect(_:radius:paint:) +1.2 M (+38.0%, self)`: the top function of a
    /// regressed row, for the one-line formats (annotations, Markdown, JUnit); `nil` without one.
    public static func topChange(_ row: ComparisonRow, _ context: ComparisonContext) -> String? {
        context.functionChanges[row.path]?.functions.first.map(change)
    }
}

/// `report --functions PHASE`: one phase's whole function table (``FunctionReport/table(_:)``).
public struct FunctionTableReport: ResultExporter {
    /// The phase's path (`drawing`, `drawing/keys`) or, when no path matches, its name if only one phase has it.
    public var phase: String

    public init(phase: String) {
        self.phase = phase
    }

    /// - Throws: ``ExportError`` when the result has no function profiles, or none for the phase
    ///   (naming the phases it has).
    public func render(_ result: LaunchResult) throws(ExportError) -> String {
        guard let profiles = result.functions, !profiles.phases.isEmpty else {
            throw .noFunctionProfiles
        }
        if let found = profiles.phase(phase) { return FunctionReport.table(found) }
        let named = profiles.phases.filter { $0.phase.split(separator: "/").last.map(String.init) == phase }
        if named.count == 1 { return FunctionReport.table(named[0]) }
        throw .noFunctionProfile(phase: phase, phasesWithProfiles: profiles.phases.map(\.phase))
    }
}

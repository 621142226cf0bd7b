import FoundationEssentials
import LaunchCore

/// Per-tier, per-phase maximum seconds (`docs/budgets.md`):
///
/// ```json
/// { "budgets": {
///     "iphone-3gs": { "Total launch time": 2.0, "drawing": 1.0 },
///     "host": { "Total launch time": 0.1 } } }
/// ```
/// A phase is named as the report prints it, or by its path (`drawing/keys`); `Total launch time` is
/// the total. The candidate's median is compared with the budget.
public struct Budget: Equatable, Sendable {
    /// Maximum seconds by tier, then by phase name or path.
    public var limits: [String: [String: Double]]

    public init(limits: [String: [String: Double]]) {
        self.limits = limits
    }

    /// Reads the budget file at `path`: a regular file of at most 1 MiB (``InputLimit/budgets``).
    public static func load(path: String) throws -> Budget {
        try Budget(json: try FileIO.read(path, limit: .budgets), file: path)
    }

    /// The largest budget accepted, in seconds (a day): anything above is a typo, not a budget.
    public static let maximumSeconds = 86_400.0

    /// Parses a budget file.
    public init(json bytes: [UInt8], file: String) throws(BudgetError) {
        struct File: Decodable { var budgets: [String: [String: Double]] }
        if let deep = JSONNesting.check(bytes) {
            throw BudgetError("\(file): line \(deep.line), column \(deep.column): nested more than \(deep.limit) levels deep (a budgets file needs 3)")
        }
        do {
            limits = try JSONDecoder().decode(File.self, from: Data(bytes)).budgets
        } catch let error as DecodingError {
            throw BudgetError("\(file): \(Self.describe(error)) (expected {\"budgets\": {\"<tier>\": {\"<phase>\": <seconds>}}})")
        } catch {
            throw BudgetError("\(file): \(error)")
        }
        for (tier, phases) in limits {
            for (phase, seconds) in phases.sorted(by: { $0.key < $1.key }) {
                guard seconds > 0, seconds.isFinite else {
                    throw BudgetError("\(file): budgets.\(tier).\(phase): expected a positive number of seconds, found \(seconds)")
                }
                guard seconds <= Self.maximumSeconds else {
                    throw BudgetError("\(file): budgets.\(tier).\(phase): expected at most \(Int(Self.maximumSeconds)) seconds (a day), found \(seconds)")
                }
            }
        }
    }

    /// A phase (or the total) over its budget.
    public struct Violation: Equatable, Sendable {
        public var phase: String
        public var tier: String
        /// The candidate's median, seconds.
        public var time: Double
        public var budget: Double

        public init(phase: String, tier: String, time: Double, budget: Double) {
            self.phase = phase
            self.tier = tier
            self.time = time
            self.budget = budget
        }
    }

    /// The budgets `result` exceeds, for its own tier (`host` when it emulated none).
    public func violations(in result: LaunchResult) -> [Violation] {
        violations(in: PhaseTable(result), tier: result.configuration?.tier?.name)
    }

    /// The phases of `table` (a result of `tier`, `nil` for the host) whose median is over budget.
    public func violations(in table: PhaseTable, tier: String?) -> [Violation] {
        let tier = tier ?? "host"
        guard let phases = limits[tier] else { return [] }
        var violations: [Violation] = []
        for (phase, budget) in phases.sorted(by: { $0.key < $1.key }) {
            if let median = Self.durations(of: phase, in: table).flatMap({ Summary($0)?.median }), median > budget {
                violations.append(Violation(phase: phase, tier: tier, time: median, budget: budget))
            }
        }
        return violations
    }

    /// The durations a budget key names in `table`: the total, a row by its path, or a launch row
    /// by its name; `nil` when the table has no such phase.
    static func durations(of phase: String, in table: PhaseTable) -> [Double]? {
        if phase == Comparison.timeTotalName { return table.totals }
        return (table.rows.first { $0.path == phase } ?? table.rows.first { $0.name == phase && !$0.afterLaunch })?.durations
    }

    /// Every key a budget may name for `table`'s phases (``durations(of:in:)`` finds each).
    public static func phaseKeys(of table: PhaseTable) -> [String] {
        [Comparison.timeTotalName] + table.rows.map(\.path) + table.rows.filter { !$0.afterLaunch }.map(\.name)
    }

    /// Checks every tier and phase the file names against `names`; throws one error listing each
    /// unknown one (`budgets.hots: no such tier; did you mean host?`), with the closest known name.
    public func check(_ names: BudgetNames, file: String) throws(BudgetError) {
        var problems: [String] = []
        let knownPhases = Set(names.phases)
        let topLevel = Set(names.phases.filter { !$0.contains("/") })
        for (tier, phases) in limits.sorted(by: { $0.key < $1.key }) {
            if !names.tiers.contains(tier) {
                problems.append(
                    "budgets.\(tier): no such tier\(NearestName.hint(for: tier, among: names.tiers)) (tiers: \(names.tiers.joined(separator: ", ")); a tiers file's with --tiers FILE)"
                )
            }
            for phase in phases.keys.sorted() where !knownPhases.contains(phase) {
                let hint = NearestName.hint(for: phase, among: names.phases)
                if !names.complete {
                    // Before the run: a sub-phase of a known phase, or a name close to none, is
                    // checked against the run's own phases afterwards.
                    let parent = phase.split(separator: "/", maxSplits: 1).first.map(String.init) ?? phase
                    if phase.contains("/") && topLevel.contains(parent) || hint.isEmpty { continue }
                }
                problems.append("budgets.\(tier).\(phase): no such phase\(hint)")
            }
        }
        guard problems.isEmpty else {
            throw BudgetError(problems.map { "\(file): \($0)" }.joined(separator: "\n"))
        }
    }

    /// The tiers with budgets, for messages.
    public var tiers: [String] { limits.keys.sorted() }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "missing key \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path.isEmpty ? "top level" : path): wrong type"
        case .dataCorrupted: return "invalid JSON"
        @unknown default: return "\(error)"
        }
    }
}

/// The tiers and phases a budget file may name (``Budget/check(_:file:)``).
public struct BudgetNames: Equatable, Sendable {
    /// The tiers there are: the tier table's, and those the results ran on.
    public var tiers: [String]
    /// Phase keys that exist: the total, phase paths and names, mark rows (`Time to interactive`).
    public var phases: [String]
    /// `true` when ``phases`` are all the candidate's phases (its result is known), so any other
    /// name is unknown. `false` before a run (a manifest's top-level phases, a baseline's): a name
    /// under a known phase (`drawing/keys`), or close to no known name, is left for the check after it.
    public var complete: Bool

    public init(tiers: [String], phases: [String], complete: Bool) {
        self.tiers = tiers
        self.phases = phases
        self.complete = complete
    }
}

/// A budget file that cannot be used.
public struct BudgetError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

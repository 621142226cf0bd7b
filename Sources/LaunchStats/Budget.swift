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
            let values: [Double]?
            if phase == "Total launch time" {
                values = table.totals
            } else {
                values = (table.rows.first { $0.path == phase } ?? table.rows.first { $0.name == phase && !$0.afterLaunch })?.durations
            }
            if let median = values.flatMap({ Summary($0)?.median }), median > budget {
                violations.append(Violation(phase: phase, tier: tier, time: median, budget: budget))
            }
        }
        return violations
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

/// A budget file that cannot be used.
public struct BudgetError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

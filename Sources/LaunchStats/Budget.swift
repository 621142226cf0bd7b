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
    /// Maximum major page faults and bytes read (the file's `majorFaults` and `bytesRead`, beside
    /// `budgets`, in the same tier → phase form; docs/budgets.md, docs/counters.md), empty when none.
    public var counterLimits: [Measure: [String: [String: Double]]] = [:]

    public init(limits: [String: [String: Double]], counterLimits: [Measure: [String: [String: Double]]] = [:]) {
        self.limits = limits
        self.counterLimits = counterLimits
    }

    /// What a budget limits: seconds (`budgets`), or a system counter of docs/counters.md.
    public enum Measure: String, Sendable, CaseIterable {
        case seconds = "budgets"
        case majorFaults
        case bytesRead

        /// The candidate's values of this measure for a budget key in `table` (a row's, or the total's).
        func values(of phase: String, in table: PhaseTable) -> [Double]? {
            switch self {
            case .seconds: return Budget.durations(of: phase, in: table)
            case .majorFaults, .bytesRead:
                let counters = phase == Comparison.timeTotalName ? table.totalCounters : Budget.row(phase, in: table)?.counters
                guard let counters else { return nil }
                return self == .majorFaults ? counters.map { Double($0.majorFaults) } : counters.compactMap { $0.bytesRead.map(Double.init) }
            }
        }
    }

    /// Reads the budget file at `path`: a regular file of at most 1 MiB (``InputLimit/budgets``).
    public static func load(path: String) throws -> Budget {
        try Budget(json: try FileIO.read(path, limit: .budgets), file: path)
    }

    /// The largest budget accepted, in seconds (a day): anything above is a typo, not a budget.
    public static let maximumSeconds = 86_400.0

    /// What a budgets file looks like, for messages.
    static let expectedShape = #"(expected {"budgets": {"<tier>": {"<phase>": <seconds>}}})"#

    /// Parses a budget file (read by ``JSONParser``); every error names the file and the key path.
    public init(json bytes: [UInt8], file: String) throws(BudgetError) {
        let root = try JSONNesting.parse(
            bytes, tooDeep: { BudgetError.tooDeep(file: file, line: $0.line, column: $0.column, limit: $0.limit) },
            invalid: { .invalidJSON(file: file, $0) })
        guard let top = root.object else { throw Self.wrongType(file, "top level", "an object", root) }
        let seconds = try Self.tierTable(top, Measure.seconds.rawValue, file: file)
        var counters: [Measure: [String: [String: Double]]] = [:]
        for measure in [Measure.majorFaults, .bytesRead] {
            counters[measure] = try Self.tierTable(top, measure.rawValue, file: file)
        }
        guard seconds != nil || !counters.isEmpty else {
            throw .noBudgets(file: file)
        }
        limits = seconds ?? [:]
        counterLimits = counters
        try Self.checkCounts(counterLimits, file: file)
        try Self.checkRanges(limits, file: file)
    }

    /// The member `key` of `top` (`budgets`, `majorFaults`, `bytesRead`), a tier → phase → number
    /// table; `nil` when absent.
    static func tierTable(_ top: JSONValue.Object, _ key: String, file: String) throws(BudgetError) -> [String: [String: Double]]? {
        guard let value = top[key] else { return nil }
        guard let tiers = value.object else { throw wrongType(file, key, "an object", value) }
        var table: [String: [String: Double]] = [:]
        for tier in tiers.keys {
            let value = tiers[tier] ?? .null
            guard let phases = value.object else { throw wrongType(file, "\(key).\(tier)", "an object", value) }
            var numbers: [String: Double] = [:]
            for phase in phases.keys {
                let value = phases[phase] ?? .null
                guard let number = value.number else { throw wrongType(file, "\(key).\(tier).\(phase)", "a number", value) }
                numbers[phase] = number
            }
            table[tier] = numbers
        }
        return table
    }

    /// `b.json: budgets.host: expected an object, found an array (expected {…})`.
    static func wrongType(_ file: String, _ path: String, _ expected: String, _ found: JSONValue) -> BudgetError {
        .wrongType(file: file, keyPath: path, expected: expected, found: found.kindDescription)
    }

    /// Refuses seconds that are not positive, or more than ``maximumSeconds``.
    private static func checkRanges(_ limits: [String: [String: Double]], file: String) throws(BudgetError) {
        for (tier, phases) in limits.sorted(by: { $0.key < $1.key }) {
            for (phase, seconds) in phases.sorted(by: { $0.key < $1.key }) {
                guard seconds > 0, seconds.isFinite else {
                    throw .notPositive(file: file, keyPath: "budgets.\(tier).\(phase)", seconds: seconds)
                }
                guard seconds <= Self.maximumSeconds else {
                    throw .overADay(file: file, keyPath: "budgets.\(tier).\(phase)", seconds: seconds)
                }
            }
        }
    }

    /// The most major faults or bytes read a budget may allow: anything above is a typo.
    public static let maximumCount = 1e15

    /// Checks the counter budgets: whole numbers from 0 to ``maximumCount`` (0 allows none).
    static func checkCounts(_ limits: [Measure: [String: [String: Double]]], file: String) throws(BudgetError) {
        for (measure, tiers) in limits.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for (tier, phases) in tiers.sorted(by: { $0.key < $1.key }) {
                for (phase, value) in phases.sorted(by: { $0.key < $1.key }) where !(value >= 0 && value <= maximumCount && value.rounded() == value) {
                    throw .notACount(file: file, keyPath: "\(measure.rawValue).\(tier).\(phase)", value: value)
                }
            }
        }
    }

    /// A phase (or the total) over its budget.
    public struct Violation: Equatable, Sendable {
        public var phase: String
        public var tier: String
        /// The candidate's median: seconds, or the counter's value (``measure``).
        public var time: Double
        public var budget: Double
        /// What the budget limits.
        public var measure: Measure

        public init(phase: String, tier: String, time: Double, budget: Double, measure: Measure = .seconds) {
            self.phase = phase
            self.tier = tier
            self.time = time
            self.budget = budget
            self.measure = measure
        }
    }

    /// The budgets `result` exceeds, for its own tier (`host` when it emulated none).
    public func violations(in result: LaunchResult) -> [Violation] {
        violations(in: PhaseTable(result), tier: result.configuration?.tier?.name)
    }

    /// The phases of `table` (a result of `tier`, `nil` for the host) whose median is over budget.
    public func violations(in table: PhaseTable, tier: String?) -> [Violation] {
        let tier = tier ?? "host"
        var violations: [Violation] = []
        for measure in Measure.allCases {
            guard let phases = measure == .seconds ? limits[tier] : counterLimits[measure]?[tier] else { continue }
            for (phase, budget) in phases.sorted(by: { $0.key < $1.key }) {
                if let median = measure.values(of: phase, in: table).flatMap({ Summary($0)?.median }), median > budget {
                    violations.append(Violation(phase: phase, tier: tier, time: median, budget: budget, measure: measure))
                }
            }
        }
        return violations
    }

    /// The durations a budget key names in `table`: the total, a row by its path, or a launch row
    /// by its name; `nil` when the table has no such phase.
    static func durations(of phase: String, in table: PhaseTable) -> [Double]? {
        if phase == Comparison.timeTotalName { return table.totals }
        return row(phase, in: table)?.durations
    }

    /// The row a budget key names: by its path, or a launch row by its name.
    static func row(_ phase: String, in table: PhaseTable) -> PhaseTable.Row? {
        table.rows.first { $0.path == phase } ?? table.rows.first { $0.name == phase && !$0.afterLaunch }
    }

    /// Every key a budget may name for `table`'s phases (``durations(of:in:)`` finds each).
    public static func phaseKeys(of table: PhaseTable) -> [String] {
        [Comparison.timeTotalName] + table.rows.map(\.path) + table.rows.filter { !$0.afterLaunch }.map(\.name)
    }

    /// Checks every tier and phase the file names against `names`; throws one error listing each
    /// unknown one (`budgets.hots: no such tier; did you mean host?`), with the closest known name.
    public func check(_ names: BudgetNames, file: String) throws(BudgetError) {
        var problems: [BudgetError.UnknownName] = []
        let knownPhases = Set(names.phases)
        let topLevel = Set(names.phases.filter { !$0.contains("/") })
        var all: [(prefix: String, tier: String, phases: [String: Double])] = limits.map { ("budgets", $0.key, $0.value) }
        for (measure, tiers) in counterLimits { all += tiers.map { (measure.rawValue, $0.key, $0.value) } }
        for (prefix, tier, phases) in all.sorted(by: { ($0.prefix, $0.tier) < ($1.prefix, $1.tier) }) {
            if !names.tiers.contains(tier) {
                problems.append(.tier(keyPath: "\(prefix).\(tier)", hint: NearestName.hint(for: tier, among: names.tiers), tiers: names.tiers))
            }
            for phase in phases.keys.sorted() where !knownPhases.contains(phase) {
                let hint = NearestName.hint(for: phase, among: names.phases)
                if !names.complete {
                    // Before the run: a sub-phase of a known phase, or a name close to none, is
                    // checked against the run's own phases afterwards.
                    let parent = phase.split(separator: "/", maxSplits: 1).first.map(String.init) ?? phase
                    if phase.contains("/") && topLevel.contains(parent) || hint.isEmpty { continue }
                }
                problems.append(.phase(keyPath: "\(prefix).\(tier).\(phase)", hint: hint))
            }
        }
        guard problems.isEmpty else {
            throw .unknownNames(file: file, problems)
        }
    }

    /// The tiers with budgets, for messages.
    public var tiers: [String] { Set(limits.keys).union(counterLimits.values.flatMap(\.keys)).sorted() }
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

/// LaunchStats' one error: a budget file that cannot be used. Every case names the file and, past
/// the JSON's syntax, the key path; one renderer, ``description``.
public enum BudgetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nested deeper than `limit` levels at `line`:`column`.
    case tooDeep(file: String, line: Int, column: Int, limit: Int)
    /// Not JSON (``CoreError/invalidJSON(offset:line:column:reason:)``).
    case invalidJSON(file: String, CoreError)
    /// The value at `keyPath` is not `expected`: it is `found` (`an array`, `a string`…).
    case wrongType(file: String, keyPath: String, expected: String, found: String)
    /// Neither `budgets` nor a counter table.
    case noBudgets(file: String)
    /// A budget in seconds that is not a positive number.
    case notPositive(file: String, keyPath: String, seconds: Double)
    /// A budget in seconds over ``Budget/maximumSeconds``.
    case overADay(file: String, keyPath: String, seconds: Double)
    /// A counter budget that is not a whole number from 0 to ``Budget/maximumCount``.
    case notACount(file: String, keyPath: String, value: Double)
    /// Tiers or phases no result has (``Budget/check(_:file:)``), each with the nearest known name.
    case unknownNames(file: String, [UnknownName])

    /// A tier or phase a budget names that does not exist: its key path, and `hint` (`; did you mean host?`, or empty).
    public enum UnknownName: Equatable, Sendable {
        /// `tiers` are those there are.
        case tier(keyPath: String, hint: String, tiers: [String])
        case phase(keyPath: String, hint: String)

        var description: String {
            switch self {
            case .tier(let keyPath, let hint, let tiers):
                return "\(keyPath): no such tier\(hint) (tiers: \(tiers.joined(separator: ", ")); a tiers file's with --tiers FILE)"
            case .phase(let keyPath, let hint): return "\(keyPath): no such phase\(hint)"
            }
        }
    }

    public var description: String {
        switch self {
        case .tooDeep(let file, let line, let column, let limit):
            return "\(file): line \(line), column \(column): nested more than \(limit) levels deep (a budgets file needs 3)"
        case .invalidJSON(let file, let error): return "\(file): \(error.reason)"
        case .wrongType(let file, let keyPath, let expected, let found):
            return "\(file): \(keyPath): expected \(expected), found \(found) \(Budget.expectedShape)"
        case .noBudgets(let file): return "\(file): missing key \"budgets\" \(Budget.expectedShape)"
        case .notPositive(let file, let keyPath, let seconds): return "\(file): \(keyPath): expected a positive number of seconds, found \(seconds)"
        case .overADay(let file, let keyPath, let seconds):
            return "\(file): \(keyPath): expected at most \(Int(Budget.maximumSeconds)) seconds (a day), found \(seconds)"
        case .notACount(let file, let keyPath, let value): return "\(file): \(keyPath): expected a whole number from 0 to 10^15, found \(value)"
        case .unknownNames(let file, let names): return names.map { "\(file): \($0.description)" }.joined(separator: "\n")
        }
    }
}

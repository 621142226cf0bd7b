import LaunchBisect
import LaunchCore
import LaunchExport

/// What a bisection did and found, in the words of its text report and its JSON.
struct BisectReport {
    /// One commit measured (or skipped), in the order measured.
    struct Step {
        var commit: String
        /// `good`, `bad`, `skipped`, `undecided`, or for the endpoints `good end` / `bad end`.
        var verdict: String
        /// The median of the phase's values (time: the probe side's), when measured.
        var value: Double?
        var note: String?
    }

    var metric: Metric
    /// `--phase`, else `nil` for the launch's total.
    var phase: String?
    var good: String
    var bad: String
    /// The commits after the good one up to the bad one.
    var commits: [String]
    var outcome: BisectOutcome
    var steps: [Step] = []
    /// Launches measured: commits under instructions, comparisons (re-measurements included) under time.
    var measurements = 0
    var goodValue: Double?
    var badValue: Double?
    var firstBad: CommitSummary?
    var firstBadValue: Double?
    /// Where every measurement was stored.
    var store: String

    init(metric: Metric, phase: String?, good: String, bad: String, commits: [String], store: String) {
        self.metric = metric
        self.phase = phase
        self.good = good
        self.bad = bad
        self.commits = commits
        self.store = store
        outcome = .nothingToBisect
    }

    /// 0 when the first bad commit was found; 1 when there is no answer (nothing to bisect, every
    /// commit between skipped, a step undecided).
    var exitStatus: Int32 {
        if case .found = outcome { return ExitStatus.success }
        return ExitStatus.regression
    }

    private var what: String {
        "\(metric == .instructions ? "instructions" : "time") of \(phase.map { "phase \"\(PlainText.oneLine($0))\"" } ?? "the launch total")"
    }
    private func quantity(_ value: Double?) -> String { ComparisonWording.quantity(value, metric, 3) }
    private static func short(_ commit: String) -> String { String(commit.prefix(10)) }

    private func range(_ positions: ClosedRange<Int>) -> String {
        let first = Self.short(commits[positions.lowerBound - 1]), last = Self.short(commits[positions.upperBound - 1])
        return positions.count == 1 ? first : "\(positions.count) commits, \(first) to \(last)"
    }

    /// The report for people: the answer first, then the change, then each step.
    var text: String {
        var lines: [String] = []
        switch outcome {
        case .found:
            let summary = firstBad.map { "\($0.line)" } ?? ""
            lines.append("first bad commit: \(summary)")
            if let stat = firstBad?.stat { lines.append("  \(stat)") }
            var change = "  \(what): \(quantity(goodValue)) at good \(Self.short(good)) → \(quantity(firstBadValue)) at \(Self.short(firstBad?.commit ?? ""))"
            if let goodValue, let firstBadValue, goodValue > 0 { change += " (\(ComparisonWording.percent((firstBadValue - goodValue) / goodValue * 100)))" }
            if let badValue, firstBad?.commit != bad { change += "; \(quantity(badValue)) at bad \(Self.short(bad))" }
            lines.append(change)
        case .nothingToBisect:
            lines.append(
                "nothing to bisect: bad \(Self.short(bad)) is not worse than good \(Self.short(good)) (\(what): \(quantity(goodValue)) → \(quantity(badValue)))"
            )
        case .skippedRange(let positions):
            let maybe = positions.upperBound == commits.count && badValue == nil ? ", if any is bad" : ""
            lines.append("cannot tell the first bad commit: the commits between could not be built or measured; it is one of \(range(positions))\(maybe)")
        case .undecided(let position, let positions):
            lines.append(
                "cannot decide \(Self.short(commits[position - 1])): the sequential rule stayed inconclusive after a re-measurement; the first bad commit is one of \(range(positions))"
            )
        }
        let skipped = steps.filter { $0.verdict == "skipped" }.count
        lines.append(
            "  \(commits.count) commit\(commits.count == 1 ? "" : "s") after good \(Self.short(good)) up to bad \(Self.short(bad)); \(measurements) measurement\(measurements == 1 ? "" : "s")\(skipped > 0 ? ", \(skipped) skipped" : ""); stored in \(store)"
        )
        lines.append("steps:")
        for step in steps {
            var line = "  \(step.verdict.padding(9)) \(Self.short(step.commit))"
            if let value = step.value { line += "  \(quantity(value))" }
            if let note = step.note { line += "  \(note)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same as JSON (`--format json`).
    var json: String {
        var root = JSONValue.Object()
        root["outcome"] = .string(outcomeName)
        root["metric"] = .string(metric.rawValue)
        root["phase"] = phase.map { .string($0) } ?? .null
        root["good"] = .string(good)
        root["bad"] = .string(bad)
        root["commits"] = .number(.init(commits.count))
        root["measurements"] = .number(.init(measurements))
        root["goodValue"] = Self.number(goodValue)
        root["badValue"] = Self.number(badValue)
        root["store"] = .string(store)
        if let firstBad {
            var commit = JSONValue.Object()
            commit["commit"] = .string(firstBad.commit)
            commit["summary"] = .string(firstBad.line)
            commit["stat"] = .string(firstBad.stat)
            commit["value"] = Self.number(firstBadValue)
            root["firstBad"] = .object(commit)
        }
        switch outcome {
        case .skippedRange(let positions), .undecided(_, let positions):
            root["candidates"] = .array(positions.map { .string(commits[$0 - 1]) })
        default: break
        }
        root["steps"] = .array(steps.map(Self.json))
        return JSONWriter.pretty(.object(root))
    }

    private var outcomeName: String {
        switch outcome {
        case .found: "found"
        case .nothingToBisect: "nothing to bisect"
        case .skippedRange: "skipped"
        case .undecided: "undecided"
        }
    }

    private static func json(_ step: Step) -> JSONValue {
        var object = JSONValue.Object()
        object["commit"] = .string(step.commit)
        object["verdict"] = .string(step.verdict)
        object["value"] = number(step.value)
        if let note = step.note { object["note"] = .string(note) }
        return .object(object)
    }

    private static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        if value == value.rounded(), abs(value) < 1e15 { return .number(.init(Int(value))) }
        return .number(.init(text: "\(value)", value: value))
    }
}

extension String {
    /// Padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

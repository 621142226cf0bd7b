import LaunchBisect
import LaunchCore
import LaunchHistory
import LaunchStats

/// One bisection: the work trees, each step's build and measurement, every result stored, and the
/// report. Instructions: one work tree, the good commit measured first, then the search (the bad end
/// is one more commit to ask about). Time: a work tree kept at the good commit and one for the
/// others, each step a comparison under the sequential rule, the bad end compared first.
struct BisectRun {
    let git: BisectGit
    let measurer: BisectMeasurer
    let phase: String?
    let good: String
    let bad: String
    let commits: [String]
    let store: any HistoryStore
    let storeOption: StoreOption
    var report: BisectReport

    /// The bisection `options` ask for, set up before anything is built: both ends found and the
    /// first-parent line between them, the target and its build, the history opened for writing.
    init(options: BisectOptions) throws {
        git = try BisectGit.current()
        good = try git.commit(options.good, option: "--good")
        bad = try git.commit(options.bad, option: "--bad")
        commits = try git.range(good: good, bad: bad, names: (options.good, options.bad))
        let build = options.build ?? (git.isLaunchprof ? BisectMeasurer.selfBuild : "true")
        measurer = BisectMeasurer(
            target: try options.target(in: git), metric: options.metric, build: build, budget: options.budget, thresholds: try options.thresholds.thresholds())
        phase = options.phase
        storeOption = options.history
        store = try storeOption.openForWriting(quiet: true)
        report = BisectReport(
            metric: measurer.metric, phase: phase, good: good, bad: bad, commits: commits, store: storeOption.writeLocation(quiet: true).description)
    }

    // MARK: - Instructions

    mutating func instructions() throws -> BisectReport {
        let tree = try BisectWorktree(repository: git.top, commit: good, name: "tree")
        defer { tree.remove() }
        if let failure = try measurer.runBuild(in: tree) { throw InputError.bisect(.buildFailed(end: .good, commit: good, failure)) }
        let goodResult = try measurer.measure(in: tree, commit: good)
        report.measurements += 1
        try save(goodResult)
        guard let goodValues = measurer.values(of: phase, in: goodResult), let rule = InstructionRule(good: goodValues) else {
            throw missingPhase(in: goodResult, at: good)
        }
        report.goodValue = InstructionRule.median(goodValues)
        record(BisectReport.Step(commit: good, verdict: "good end", value: report.goodValue))
        let search = BisectSearch(count: commits.count, badKnown: false)
        var values: [Int: Double] = [:]
        let (outcome, _) = try search.run { position in
            let commit = commits[position - 1]
            guard tree.checkout(commit) else { return skip(commit, "git checkout failed") }
            if let failure = try measurer.runBuild(in: tree) { return skip(commit, failure.description) }
            let result: LaunchResult
            do { result = try measurer.measure(in: tree, commit: commit) } catch { return skip(commit, "measurement failed: \(error)") }
            report.measurements += 1
            try save(result)
            guard let counts = measurer.values(of: phase, in: result), let verdict = rule.verdict(counts) else {
                return skip(commit, "no instruction count of the phase at this commit")
            }
            values[position] = InstructionRule.median(counts)
            record(BisectReport.Step(commit: commit, verdict: verdict == .bad ? "bad" : "good", value: values[position]))
            return verdict
        }
        report.badValue = values[commits.count]
        return finish(outcome, value: { values[$0] })
    }

    // MARK: - Time

    mutating func time() throws -> BisectReport {
        let goodTree = try BisectWorktree(repository: git.top, commit: good, name: "good")
        defer { goodTree.remove() }
        let probe = try BisectWorktree(repository: git.top, commit: bad, name: "probe")
        defer { probe.remove() }
        if let failure = try measurer.runBuild(in: goodTree) { throw InputError.bisect(.buildFailed(end: .good, commit: good, failure)) }
        if let failure = try measurer.runBuild(in: probe) { throw InputError.bisect(.buildFailed(end: .bad, commit: bad, failure)) }
        let key = phase ?? SequentialLook.totalKey
        var values: [Int: Double] = [:]
        // The bad end first: is it slower at all?
        let (badVerdict, badValue) = try decide(goodTree, probe, commit: bad, key: key, first: true)
        report.badValue = badValue
        values[commits.count] = badValue
        switch badVerdict {
        case .good: return finish(.nothingToBisect, value: { values[$0] })
        case .undecided: return finish(.undecided(position: commits.count, range: 1...commits.count), value: { values[$0] })
        default: break
        }
        let search = BisectSearch(count: commits.count, badKnown: true)
        let (outcome, _) = try search.run { position in
            let commit = commits[position - 1]
            guard probe.checkout(commit) else { return skip(commit, "git checkout failed") }
            if let failure = try measurer.runBuild(in: probe) { return skip(commit, failure.description) }
            do {
                let (verdict, value) = try decide(goodTree, probe, commit: commit, key: key, first: false)
                values[position] = value
                return verdict
            } catch {
                return skip(commit, "measurement failed: \(error)")
            }
        }
        return finish(outcome, value: { values[$0] })
    }

    /// `probe` (at `commit`) against the good tree: slower is bad, not slower good; inconclusive
    /// is measured once more, and undecided if it stays so.
    private mutating func decide(_ goodTree: BisectWorktree, _ probe: BisectWorktree, commit: String, key: String, first: Bool) throws -> (StepVerdict, Double?)
    {
        for attempt in 1...2 {
            let outcome = try measurer.compare(good: goodTree, probe: probe, key: key, commits: (good, commit))
            report.measurements += 1
            if first && attempt == 1 {
                try save(outcome.baseline)
                guard measurer.values(of: phase, in: outcome.baseline) != nil else { throw missingPhase(in: outcome.baseline, at: good) }
                report.goodValue = outcome.comparison.row(key)?.baselineMedian
                record(BisectReport.Step(commit: good, verdict: "good end", value: report.goodValue, note: "the side every step is compared with"))
            }
            try save(outcome.candidate)
            guard let row = outcome.comparison.row(key), row.candidateMedian != nil else {
                throw InputError.bisect(.notMeasured(phase: phase, commit: commit))
            }
            let value = row.candidateMedian
            let runs = "\(outcome.pairs) runs a side"
            switch row.verdict {
            case .slower:
                record(BisectReport.Step(commit: commit, verdict: first ? "bad end" : "bad", value: value, note: runs))
                return (.bad, value)
            case .faster, .withinNoise:
                record(BisectReport.Step(commit: commit, verdict: first ? "bad end" : "good", value: value, note: first ? "not slower, \(runs)" : runs))
                return (.good, value)
            default:
                let note = attempt == 1 ? "inconclusive after \(runs): measured again" : "inconclusive again after \(runs)"
                record(BisectReport.Step(commit: commit, verdict: attempt == 1 ? "again" : "undecided", value: value, note: note))
            }
        }
        return (.undecided, nil)
    }

    // MARK: - Steps

    private func short(_ commit: String) -> String { BisectProblem.short(commit) }

    private mutating func skip(_ commit: String, _ reason: String) -> StepVerdict {
        record(BisectReport.Step(commit: commit, verdict: "skipped", note: reason))
        return .skipped(reason: reason)
    }

    private mutating func record(_ step: BisectReport.Step) {
        report.steps.append(step)
        if StandardError.isTerminal {
            let value = step.value.map { " " + (measurer.metric == .instructions ? "\(Int($0)) instructions" : DurationFormat.format($0, digits: 3)) } ?? ""
            StandardError.write("launchprof bisect: \(short(step.commit)) \(step.verdict)\(value)\(step.note.map { " (\($0))" } ?? "")\n")
        }
    }

    private func save(_ result: LaunchResult) throws {
        try storeOption.save(result, into: store, quiet: true)
    }

    private func missingPhase(in result: LaunchResult, at commit: String) -> InputError {
        guard let phase else { return .bisect(.noTotal(commit: commit, metric: measurer.metric)) }
        return .bisect(.noSuchPhase(phase: phase, metric: measurer.metric, commit: commit, phases: BisectMeasurer.phaseNames(in: result)))
    }

    private mutating func finish(_ outcome: BisectOutcome, value: (Int) -> Double?) -> BisectReport {
        report.outcome = outcome
        if case .found(let position) = outcome {
            report.firstBad = git.summary(of: commits[position - 1])
            report.firstBadValue = value(position)
        }
        return report
    }
}

extension Comparison {
    /// The row of `key`: a phase's path or name, or the total (``SequentialLook/totalKey``).
    func row(_ key: String) -> ComparisonRow? {
        if key == SequentialLook.totalKey { return total }
        return rows.first { $0.path == key } ?? rows.first { $0.name == key }
    }
}

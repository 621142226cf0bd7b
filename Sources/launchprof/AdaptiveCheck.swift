import LaunchCore
import LaunchRunner
import LaunchStats

/// `check --runs auto` with a baseline launched now: interleaved pairs of runs (A B, B A, …) are
/// added until ``SequentialGate`` decides every phase and the total, or decides one of them slower
/// (the check fails then, whatever the others), or the budget (`--max-runs` a side, `--max-time`)
/// runs out. Returns both sides and the comparison with the sequential verdicts.
struct AdaptiveCheck {
    let gate: SequentialGate
    let thresholds: Thresholds
    let maxTime: Double
    let quiet: Bool

    init(thresholds: Thresholds, budget: AdaptiveOptions, quiet: Bool) {
        self.thresholds = thresholds
        gate = SequentialGate(alpha: thresholds.alpha, maxPairs: budget.maxRuns)
        maxTime = budget.maxTime
        self.quiet = quiet
    }

    struct Outcome {
        var baseline: LaunchResult
        var candidate: LaunchResult
        var comparison: Comparison
        var pairs: Int
    }

    func run(baseline a: Profile, candidate b: Profile) throws -> Outcome {
        let progress = ProgressBar(enabled: !quiet && StandardError.isTerminal)
        defer { progress.finish() }
        var runsA: [RunRecord] = [], runsB: [RunRecord] = []
        let sessionA = a.session(runs: 1, warmup: 0), sessionB = b.session(runs: 1, warmup: 0)
        func launch(_ session: LaunchSession, _ index: Int) throws -> RunRecord {
            do {
                var record = try session.run { progress.handle($0) }[0]
                record.index = index
                return record
            } catch {
                throw InputError(error.description)
            }
        }
        for round in 0..<a.options.warmup {
            for session in round % 2 == 0 ? [sessionA, sessionB] : [sessionB, sessionA] { _ = try launch(session, 0) }
        }
        let start = MonotonicClock.nanoseconds()
        var spent = 0.0
        var outcomes: [String: SequentialGate.Outcome] = [:]
        let maxPairs = gate.looks.last ?? 1
        while runsA.count < maxPairs {
            // A B, then B A: each side goes first half the time.
            if runsA.count % 2 == 0 {
                runsA.append(try launch(sessionA, runsA.count + 1))
                runsB.append(try launch(sessionB, runsB.count + 1))
            } else {
                runsB.append(try launch(sessionB, runsB.count + 1))
                runsA.append(try launch(sessionA, runsA.count + 1))
            }
            let pairs = runsA.count
            let outOfTime = LaunchClock.seconds(MonotonicClock.nanoseconds() - start) >= maxTime
            var alpha = gate.alpha(atPairs: pairs)
            // Stopped by the clock between planned looks: one last look with the α not yet spent.
            if outOfTime, alpha == 0 { alpha = max(0, gate.alpha - spent) }
            guard alpha > 0 else { continue }
            spent += alpha
            outcomes = decide(a.result(runsA), b.result(runsB), pairs: pairs, alpha: alpha)
            // Stop when every phase is decided, or as soon as one is slower: the check fails either way.
            if outOfTime || outcomes.values.allSatisfy({ $0.decision != .undecided })
                || outcomes.values.contains(where: { $0.decision == .slower }) { break }
        }
        let resultA = a.result(runsA), resultB = b.result(runsB)
        var comparison = Comparison(baseline: resultA, candidate: resultB, thresholds: thresholds, paired: true)
        for i in comparison.rows.indices {
            if let outcome = outcomes[comparison.rows[i].path] { comparison.rows[i].apply(outcome, pairs: runsA.count) }
        }
        if let outcome = outcomes[Self.totalKey] { comparison.total.apply(outcome, pairs: runsA.count) }
        return Outcome(baseline: resultA, candidate: resultB, comparison: comparison, pairs: runsA.count)
    }

    static let totalKey = "\u{0}total"

    /// Every phase present in every run of both sides, and the total, at one look.
    func decide(_ a: LaunchResult, _ b: LaunchResult, pairs: Int, alpha: Double) -> [String: SequentialGate.Outcome] {
        let tableA = PhaseTable(a), tableB = PhaseTable(b)
        let rowsA = Dictionary(tableA.rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var outcomes: [String: SequentialGate.Outcome] = [:]
        func decide(_ key: String, path: String, name: String, _ valuesA: [Double], _ valuesB: [Double]) {
            guard valuesA.count == pairs, valuesB.count == pairs, let base = Summary(valuesA)?.median else { return }
            let threshold = thresholds.threshold(.time, path: path, name: name, baseline: base)
            outcomes[key] = gate.decide(differences: zip(valuesB, valuesA).map { $0 - $1 }, threshold: threshold, alpha: alpha)
        }
        for row in tableB.rows where !row.afterLaunch {
            guard let rowA = rowsA[row.path] else { continue }
            decide(row.path, path: row.path, name: row.name, rowA.durations, row.durations)
        }
        decide(Self.totalKey, path: "Total launch time", name: "Total launch time", tableA.totals, tableB.totals)
        return outcomes
    }
}

import Testing
@testable import LaunchStats
import LaunchCore

/// The whole-launch looks of `check --runs auto` (``SequentialLook``) on synthetic interleaved runs
/// from a seeded generator: what `AdaptiveSession` feeds it, without launching anything.
struct SequentialLookTests {
    typealias Seeded = SequentialGateTests.Seeded

    /// Runs of two phases (`a` around 50 ms, `b` around 100 ms, log-normal noise of about 8% like
    /// the shared CI machine's); the candidate's `b` is slower by `shift` (a fraction).
    static func runs(_ n: Int, shift: Double, rng: inout Seeded) -> (LaunchResult, LaunchResult) {
        var a: [Double] = [], b: [Double] = [], a2: [Double] = [], b2: [Double] = []
        for _ in 0..<n {
            a.append(0.05 * _exp(0.08 * rng.normal())); b.append(0.1 * _exp(0.08 * rng.normal()))
            a2.append(0.05 * _exp(0.08 * rng.normal())); b2.append(0.1 * (1 + shift) * _exp(0.08 * rng.normal()))
        }
        return (Fixed.result([("a", a), ("b", b)]), Fixed.result([("a", a2), ("b", b2)]))
    }

    /// Adds pairs one at a time, as the launcher does, until the look says stop; `budget` pairs at most.
    static func sequence(_ look: inout SequentialLook, shift: Double, budget: Int, rng: inout Seeded) -> Int {
        let (baseline, candidate) = runs(budget, shift: shift, rng: &rng)
        for pairs in 1...budget {
            let last = pairs == budget
            guard look.alpha(atPairs: pairs, last: last) > 0 else { continue }
            var a = baseline, b = candidate
            a.runs = Array(a.runs.prefix(pairs)); b.runs = Array(b.runs.prefix(pairs))
            if look.look(baseline: a, candidate: b, last: last) { return pairs }
        }
        return budget
    }

    @Test func aTenPercentSlowdownIsCaughtAndNamedEarly() throws {
        var rng = Seeded(state: 11)
        var look = SequentialLook(thresholds: Thresholds(percent: 2, seconds: 0), maxPairs: 200)
        let pairs = Self.sequence(&look, shift: 0.10, budget: 200, rng: &rng)
        #expect(pairs < 200, "decided before the budget")
        #expect(look.outcomes["b"]?.decision == .slower)
        #expect(look.outcomes["a"]?.decision != .slower)
        #expect(look.gate.looks.contains(pairs))
        let (baseline, candidate) = Self.runs(pairs, shift: 0.1, rng: &rng)
        let comparison = look.comparison(baseline: baseline, candidate: candidate)
        let row = try #require(comparison.rows.first { $0.path == "b" })
        #expect(row.verdict == .slower && row.sequentialRuns == pairs)
    }

    @Test func anUnchangedLaunchIsDecidedNotSlowerWithAWideThreshold() {
        var rng = Seeded(state: 12)
        var look = SequentialLook(thresholds: Thresholds(percent: 50, seconds: 0), maxPairs: 200)
        let pairs = Self.sequence(&look, shift: 0, budget: 200, rng: &rng)
        #expect(pairs == SequentialGate.firstLook)
        #expect(look.outcomes.count == 3, "both phases and the total")
        #expect(look.outcomes.values.allSatisfy { $0.decision == .notSlower })
    }

    @Test func compareWaitsOnlyForItsRowsAndDecidesBothWays() {
        // A 10% improvement of `b`: check's rule would call it "not slower" at once; compare's waits
        // until the interval lies past −threshold, and looks at `b` and the total only.
        var rng = Seeded(state: 14)
        var look = SequentialLook(thresholds: Thresholds(percent: 2, seconds: 0), maxPairs: 200, keys: ["b", SequentialLook.totalKey], symmetric: true)
        let pairs = Self.sequence(&look, shift: -0.10, budget: 200, rng: &rng)
        #expect(pairs < 200, "decided before the budget")
        #expect(look.outcomes["a"] == nil, "a phase compare does not report is not waited for")
        #expect(look.outcomes["b"]?.decision == .faster)
        #expect(look.outcomes.values.allSatisfy { $0.decision != .undecided })
        // The same runs under check's rule stop at the first look, with `b` merely "not slower".
        var rng2 = Seeded(state: 14)
        var check = SequentialLook(thresholds: Thresholds(percent: 2, seconds: 0), maxPairs: 200, keys: ["b", SequentialLook.totalKey])
        #expect(Self.sequence(&check, shift: -0.10, budget: 200, rng: &rng2) <= pairs)
    }

    @Test func compareSaysUndecidedWhileAnImprovementMayBeBiggerThanTheThreshold() {
        var look = SequentialLook(thresholds: Thresholds(percent: 5, seconds: 0), maxPairs: 200, symmetric: true)
        // Interval −8%…+1% of a 100 ms phase: not slower, but maybe better than 5%.
        let outcome = SequentialGate.Outcome(decision: .notSlower, change: -0.003, lower: -0.008, upper: 0.001, level: 0.99)
        #expect(look.settled(outcome, 0.005).decision == .undecided)
        let inside = SequentialGate.Outcome(decision: .notSlower, change: 0, lower: -0.004, upper: 0.004, level: 0.99)
        #expect(look.settled(inside, 0.005).decision == .notSlower)
        look.symmetric = false
        #expect(look.settled(outcome, 0.005).decision == .notSlower)
    }

    @Test func theBudgetStopsWithUndecidedPhases() {
        var rng = Seeded(state: 13)
        // A 5% slowdown against a 5% threshold cannot be decided either way.
        var look = SequentialLook(thresholds: Thresholds(percent: 5, seconds: 0), maxPairs: 30)
        let pairs = Self.sequence(&look, shift: 0.05, budget: 30, rng: &rng)
        #expect(pairs == 30)
        #expect(look.outcomes["b"]?.decision == .undecided)
        #expect(abs(look.spent - 0.01) < 1e-12, "the last look spends what is left, and no more")
    }

    @Test func aTimeBudgetBetweenLooksSpendsWhatIsLeftExactlyOnce() {
        var look = SequentialLook(thresholds: Thresholds(), maxPairs: 200)
        let (a, b) = {
            var rng = Seeded(state: 14); return Self.runs(30, shift: 0, rng: &rng)
        }()
        #expect(look.alpha(atPairs: 17, last: false) == 0, "no look between the planned ones")
        _ = look.look(baseline: Fixed.result([]), candidate: Fixed.result([]), last: false)
        var first = a, second = b
        first.runs = Array(a.runs.prefix(16)); second.runs = Array(b.runs.prefix(16))
        _ = look.look(baseline: first, candidate: second, last: false)
        let spentAtFirstLook = look.spent
        #expect(spentAtFirstLook == look.gate.alpha(atPairs: 16))
        let stops = look.look(baseline: a, candidate: b, last: true)
        #expect(stops, "the last look always stops")
        #expect(abs(look.spent - 0.01) < 1e-12)
        #expect(look.alpha(atPairs: 200, last: true) < 1e-12, "nothing left to spend")
    }

    @Test func noChangeFailsAtMostAlphaUnderRandomTimeBudgets() {
        // The hardest case again (threshold 0), with the clock cutting each sequence at a random
        // pair count, as --max-time does: the last look spends what is left.
        var rng = Seeded(state: 15)
        var falseAlarms = 0
        let sequences = 600
        for _ in 0..<sequences {
            var look = SequentialLook(thresholds: Thresholds(percent: 0, seconds: 0), maxPairs: 200)
            let budget = 1 + Int(rng.next() % 200)
            _ = Self.sequence(&look, shift: 0, budget: budget, rng: &rng)
            if look.outcomes.values.contains(where: { $0.decision == .slower }) { falseAlarms += 1 }
        }
        // Three rows (a, b, total), each wrong "slower" with chance ≤ α/2 = 0.5%: ≤ 1.5% by the
        // union bound; 600 sequences allow for sampling error.
        #expect(Double(falseAlarms) / Double(sequences) <= 0.02, "\(falseAlarms) false alarms in \(sequences)")
    }
}

import Testing
@testable import LaunchStats

/// The stopping rule of `check --runs auto`, on known and simulated data.
struct SequentialGateTests {
    /// A seeded generator (SplitMix64), so every simulation is the same on every run.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
        /// Standard normal (Box–Muller).
        mutating func normal() -> Double {
            let u = max(uniform(), 1e-300), v = uniform()
            return (-2 * _log(u)).squareRoot() * _cos(2 * .pi * v)
        }
        /// A skewed, heavy-tailed noise like launch times: log-normal around 0 difference.
        mutating func launchNoise() -> Double { _exp(0.3 * normal()) - _exp(0.3 * normal()) }
    }

    @Test func signTestIntervalMatchesTheBinomialTable() throws {
        // n = 10, α = 0.05: P(X ≤ 1) = 11/1024 ≤ 0.025 < P(X ≤ 2) = 56/1024, so k = 2: [x₍₂₎, x₍₉₎].
        let interval = try #require(SequentialGate.signTestInterval(sorted: (1...10).map(Double.init), alpha: 0.05))
        #expect(interval.lower == 2 && interval.upper == 9)
        // n = 5: even [x₍₁₎, x₍₅₎] covers only 1 − 2/32 = 93.75% < 95%.
        #expect(SequentialGate.signTestInterval(sorted: [1, 2, 3, 4, 5], alpha: 0.05) == nil)
        #expect(SequentialGate.signTestInterval(sorted: [1, 2, 3, 4, 5, 6], alpha: 0.05) != nil)
        #expect(SequentialGate.signTestInterval(sorted: [], alpha: 0.05) == nil)
    }

    @Test func theLooksSpendExactlyAlpha() {
        let gate = SequentialGate(alpha: 0.01, maxPairs: 200)
        #expect(gate.looks.first == 16 && gate.looks.last == 200)
        #expect(gate.looks == gate.looks.sorted())
        let spent = gate.looks.reduce(0) { $0 + gate.alpha(atPairs: $1) }
        #expect(abs(spent - 0.01) < 1e-12)
        #expect(gate.alpha(atPairs: 17) == 0, "no α between planned looks")
        #expect(gate.alpha(atPairs: 200) > gate.alpha(atPairs: 16), "later looks get more")
    }

    /// Runs the rule on one simulated sequence; returns the decision and the pairs used.
    func simulate(_ gate: SequentialGate, threshold: Double, rng: inout Seeded, shift: Double) -> (SequentialGate.Decision, Int) {
        var differences: [Double] = []
        for look in gate.looks {
            while differences.count < look { differences.append(shift + rng.launchNoise()) }
            let outcome = gate.decide(differences: differences, threshold: threshold, pairs: look)
            if outcome.decision != .undecided { return (outcome.decision, look) }
        }
        return (.undecided, differences.count)
    }

    @Test func noChangeIsCalledSlowerAtMostAlphaOfTheTimeUnderOptionalStopping() {
        // The hardest case: threshold 0, so any interval above 0 is a false alarm. One-sided, the
        // rule guarantees at most α/2 = 0.5%; 2000 sequences allow for sampling error (≤ 1%).
        let gate = SequentialGate(alpha: 0.01, maxPairs: 200)
        var rng = Seeded(state: 42)
        var falseAlarms = 0
        let sequences = 2000
        for _ in 0..<sequences {
            if simulate(gate, threshold: 0, rng: &rng, shift: 0).0 == .slower { falseAlarms += 1 }
        }
        #expect(Double(falseAlarms) / Double(sequences) <= 0.01, "\(falseAlarms) false alarms in \(sequences)")
    }

    @Test func aLargeShiftStopsAtTheFirstLookAsSlower() {
        let gate = SequentialGate(alpha: 0.01, maxPairs: 200)
        var rng = Seeded(state: 7)
        let (decision, pairs) = simulate(gate, threshold: 0.05, rng: &rng, shift: 5)
        #expect(decision == .slower)
        #expect(pairs == SequentialGate.firstLook)
    }

    @Test func aShiftOnTheThresholdRunsOutOfBudget() {
        let gate = SequentialGate(alpha: 0.01, maxPairs: 40)
        var rng = Seeded(state: 9)
        let (decision, pairs) = simulate(gate, threshold: 0.2, rng: &rng, shift: 0.2)
        #expect(decision == .undecided)
        #expect(pairs == 40)
    }

    @Test func decisionsFollowTheInterval() {
        let gate = SequentialGate(alpha: 0.05, maxPairs: 10)
        let below = gate.decide(differences: (1...10).map { Double($0) / 100 }, threshold: 1, alpha: 0.05)
        #expect(below.decision == .notSlower && below.upper == 0.09)
        let above = gate.decide(differences: (1...10).map { 2 + Double($0) / 100 }, threshold: 1, alpha: 0.05)
        #expect(above.decision == .slower)
        let faster = gate.decide(differences: (1...10).map { -2 - Double($0) / 100 }, threshold: 1, alpha: 0.05)
        #expect(faster.decision == .faster)
        let straddling = gate.decide(differences: (1...10).map { Double($0) / 5 }, threshold: 1, alpha: 0.05)
        #expect(straddling.decision == .undecided)
        #expect(abs(straddling.level - 0.95) < 1e-12)
    }
}

/// Why the looks are planned and α is spent: testing again after every pair at the full α is what
/// the rule must not do, and it does inflate the false-alarm rate on the same data.
struct SequentialNaiveContrastTests {
    @Test func testingAfterEveryPairRaisesFalseAlarmsThatSpendingKeepsDown() {
        let gate = SequentialGate(alpha: 0.01, maxPairs: 200)
        var rng = SequentialGateTests.Seeded(state: 99)
        var naive = 0, spending = 0
        let sequences = 1000
        for _ in 0..<sequences {
            let differences = (0..<200).map { _ in rng.launchNoise() }
            // Naive: stop at the first pair count whose 99% interval lies above 0 (kept sorted as it grows).
            var sorted: [Double] = []
            for (n, difference) in differences.enumerated() {
                sorted.insert(difference, at: sorted.firstIndex { $0 > difference } ?? sorted.count)
                guard n + 1 >= SequentialGate.firstLook else { continue }
                if let interval = SequentialGate.signTestInterval(sorted: sorted, alpha: 0.01), interval.lower > 0 {
                    naive += 1
                    break
                }
            }
            // The rule: only at the planned looks, at αₖ.
            for look in gate.looks {
                let decision = gate.decide(differences: Array(differences.prefix(look)), threshold: 0, pairs: look).decision
                if decision == .slower { spending += 1 }
                if decision != .undecided { break }
            }
        }
        #expect(Double(spending) / Double(sequences) <= 0.01)
        #expect(naive > 2 * max(spending, 1), "naive \(naive), spending \(spending) of \(sequences)")
        #expect(Double(naive) / Double(sequences) > 0.01, "testing after every pair exceeds α")
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The stopping rule of `check --runs auto`: interleaved pairs of runs are added, and after some
/// of them (the *looks*) each phase's confidence interval for the change is computed; a phase is
/// decided once its interval lies wholly above the threshold (slower) or wholly below it (not
/// slower), and the check stops when every phase is decided or the budget runs out.
///
/// Testing again after every run would inflate the false-alarm rate far above α. This rule is
/// valid under optional stopping by **alpha spending** (a Bonferroni split of α over the planned
/// looks): look k uses an interval at level 1 − αₖ with Σ αₖ = α, so the chance that *any* look's
/// interval misses the true change is at most α, whenever the rule stops. αₖ grows with the look's
/// number of pairs (αₖ ∝ nₖ), so the early looks, with few runs, spend little. The interval is the
/// distribution-free **sign-test interval** for the median of the per-pair differences (order
/// statistics of the differences, with binomial(n, ½) coverage): it assumes only that pairs are
/// independent and the differences' median is the change, which holds for interleaved runs on a
/// drifting machine. See docs/sequential.md.
public struct SequentialGate: Sendable {
    /// The family-wise error: the chance that any look's interval misses the true change.
    public var alpha: Double
    /// The numbers of pairs at which the phases are examined, ascending; the last is the budget.
    public var looks: [Int]

    /// Pairs at the first look: with α = 0.01 spent over the looks, fewer pairs could not give a
    /// finite sign-test interval at that look's level, so the look would be wasted.
    public static let firstLook = 16

    /// A gate examining the phases at 16, 24, 36, 54, … pairs (×1.5), and at `maxPairs`.
    public init(alpha: Double, maxPairs: Int) {
        self.alpha = alpha
        var looks: [Int] = []
        var n = Double(Self.firstLook)
        let cap = max(maxPairs, 1)
        while Int(n) < cap, looks.count < 64 {
            looks.append(Int(n))
            n = (n * 1.5).rounded(.up)
        }
        looks.append(cap)
        self.looks = looks
    }

    /// αₖ of the look at `pairs` pairs (0 when it is not a planned look).
    public func alpha(atPairs pairs: Int) -> Double {
        guard looks.contains(pairs) else { return 0 }
        let total = looks.reduce(0) { $0 + Double($1) }
        return alpha * Double(pairs) / total
    }

    /// What a look concluded for one phase.
    public enum Decision: Equatable, Sendable {
        /// The interval lies above the threshold: a regression.
        case slower
        /// The interval lies below −threshold: a real improvement.
        case faster
        /// The interval lies below +threshold (and not below −threshold): not a regression.
        case notSlower
        /// The interval straddles the threshold.
        case undecided
    }

    /// One phase at one look.
    public struct Outcome: Equatable, Sendable {
        public var decision: Decision
        /// The median of the per-pair differences (B − A).
        public var change: Double
        /// The interval at this look's level, or `nil` when the pairs are too few for any.
        public var lower: Double?
        public var upper: Double?
        /// The interval's confidence level, 1 − αₖ.
        public var level: Double

        public init(decision: Decision, change: Double, lower: Double?, upper: Double?, level: Double) {
            self.decision = decision
            self.change = change
            self.lower = lower
            self.upper = upper
            self.level = level
        }
    }

    /// Decides a phase from its per-pair differences (B − A) at a look with `pairs` pairs.
    public func decide(differences: [Double], threshold: Double, pairs: Int) -> Outcome {
        decide(differences: differences, threshold: threshold, alpha: alpha(atPairs: pairs))
    }

    /// Decides a phase from its per-pair differences (B − A) with an interval at level 1 − `level`.
    public func decide(differences: [Double], threshold: Double, alpha level: Double) -> Outcome {
        let sorted = differences.filter(\.isFinite).sorted()
        let change = sorted.isEmpty ? 0 : Summary.quantile(sorted, 0.5)
        guard level > 0, let (lower, upper) = Self.signTestInterval(sorted: sorted, alpha: level) else {
            return Outcome(decision: .undecided, change: change, lower: nil, upper: nil, level: 1 - level)
        }
        let decision: Decision
        if lower > threshold {
            decision = .slower
        } else if upper < -threshold {
            decision = .faster
        } else if upper < threshold {
            decision = .notSlower
        } else {
            decision = .undecided
        }
        return Outcome(decision: decision, change: change, lower: lower, upper: upper, level: 1 - level)
    }

    /// The sign-test confidence interval for the median at level ≥ 1 − `alpha`: `[x₍ₖ₎, x₍ₙ₋ₖ₊₁₎]`
    /// with the largest k such that P(Binomial(n, ½) ≤ k − 1) ≤ α/2. `nil` when even the widest
    /// interval, `[x₍₁₎, x₍ₙ₎]`, does not reach the level (too few values).
    public static func signTestInterval(sorted: [Double], alpha: Double) -> (lower: Double, upper: Double)? {
        let n = sorted.count
        guard n > 0, n <= 1_000_000, alpha > 0, alpha < 1 else { return nil }
        // Cumulative binomial(n, ½) probabilities in log space, to stay finite for large n.
        let logHalfN = Double(n) * log(0.5)
        var logChoose = 0.0  // log C(n, 0)
        var cumulative = 0.0
        var k = 0
        for j in 0..<n {
            cumulative += exp(logChoose + logHalfN)
            if cumulative > alpha / 2 { break }
            k = j + 1
            logChoose += log(Double(n - j)) - log(Double(j + 1))
            if k > n / 2 { break }
        }
        guard k >= 1 else { return nil }
        return (sorted[k - 1], sorted[n - k])
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Distribution-free confidence intervals from order statistics: no resampling, exact coverage
/// (at least the nominal level) whatever the distribution, and cheap enough for thousands of phases.
///
/// - Unpaired samples: the interval for the **Hodges–Lehmann shift** of B against A. Of the n·m
///   pairwise differences bⱼ − aᵢ, sorted, it is [D₍ₖ₎, D₍ₙₘ₊₁₋ₖ₎], where k − 1 is the largest
///   Mann–Whitney U with P(U ≤ k − 1) ≤ (1 − confidence)/2 (exact distribution up to n·m = 2500,
///   else the normal approximation with a continuity correction). Under the shift model the shift
///   is the change of medians.
/// - Paired samples: the **sign-test interval** for the median of the per-pair differences dᵢ:
///   [d₍ₖ₎, d₍ₙ₊₁₋ₖ₎] with k − 1 the largest count with P(Binomial(n, ½) ≤ k − 1) ≤ (1 − confidence)/2.
///
/// The k-th pairwise difference is found without listing all n·m of them: a bisection (by value,
/// and every fourth step over the ordered bit patterns of doubles: at most 256 steps), each counting the differences at or below
/// a value in O(n + m) on the sorted samples, until few enough remain to list and select from.
public enum RankIntervals {
    /// The order k of the shift interval for sample sizes `n` and `m`; `nil` when even the widest
    /// interval (k = 1) falls short of `confidence` (too few runs). `exactCounts` is the Mann–Whitney
    /// distribution (``MannWhitney/exactDistribution(n:m:)``) when the exact order is wanted.
    public static func shiftOrder(n: Int, m: Int, confidence: Double, exactCounts: [Double]? = nil) -> Int? {
        guard n > 0, m > 0, confidence > 0, confidence < 1 else { return nil }
        let (product, overflow) = n.multipliedReportingOverflow(by: m)
        guard !overflow else { return nil }
        let tail = (1 - confidence) / 2
        if let counts = exactCounts, counts.count == product + 1 {
            let total = counts.reduce(0, +)
            guard total > 0 else { return nil }
            var cumulative = 0.0
            var k = 0
            // The largest k with P(U ≤ k − 1) ≤ tail; U is symmetric, so k ≤ nm/2 + 1 always.
            while k < counts.count, (cumulative + counts[k]) / total <= tail {
                cumulative += counts[k]
                k += 1
            }
            return k >= 1 ? k : nil
        }
        let nm = Double(n) * Double(m)
        let sigma = (nm * (Double(n) + Double(m) + 1) / 12).squareRoot()
        let c = (nm / 2 + 0.5 - NormalDistribution.quantile(1 - tail) * sigma).rounded(.down)
        guard c.isFinite, c >= 1 else { return nil }
        return Int(min(c, nm / 2 + 1))
    }

    /// The order k of the sign-test interval for `n` pairs; `nil` when too few pairs reach `confidence`.
    public static func signTestOrder(n: Int, confidence: Double) -> Int? {
        guard n > 0, confidence > 0, confidence < 1 else { return nil }
        let tail = (1 - confidence) / 2
        if n <= 1000 {
            // P(K = i) = C(n, i) / 2ⁿ, summed in log space (2ⁿ underflows past n = 1074).
            let logTotal = Double(n) * log(2.0)
            var cumulative = 0.0
            var k = 0
            while k <= n / 2 {
                let logP = lgamma(Double(n) + 1) - lgamma(Double(k) + 1) - lgamma(Double(n - k) + 1) - logTotal
                let next = cumulative + exp(logP)
                guard next <= tail else { break }
                cumulative = next
                k += 1
            }
            return k >= 1 ? k : nil
        }
        let c = (Double(n) / 2 + 0.5 - NormalDistribution.quantile(1 - tail) * Double(n).squareRoot() / 2).rounded(.down)
        guard c.isFinite, c >= 1 else { return nil }
        return Int(min(c, Double(n) / 2 + 1))
    }

    /// The `confidence` interval of the Hodges–Lehmann shift of `sortedB` against `sortedA` (both
    /// sorted ascending, finite). `nil` when the samples are too small for the level.
    public static func shiftInterval(
        sortedA a: [Double], sortedB b: [Double], confidence: Double = 0.99,
        exactCounts: [Double]? = nil
    ) -> (lower: Double, upper: Double)? {
        guard !a.isEmpty, !b.isEmpty,
            let k = shiftOrder(n: a.count, m: b.count, confidence: confidence, exactCounts: exactCounts)
        else { return nil }
        let total = a.count * b.count
        guard k <= total + 1 - k,
            let lower = kthPairwiseDifference(sortedA: a, sortedB: b, k: k),
            let upper = kthPairwiseDifference(sortedA: a, sortedB: b, k: total + 1 - k)
        else { return nil }
        return (lower, upper)
    }

    /// The `confidence` sign-test interval of the median of `b[i] − a[i]`; `nil` unless both have
    /// the same size and enough pairs for the level.
    public static func pairedInterval(_ a: [Double], _ b: [Double], confidence: Double = 0.99) -> (lower: Double, upper: Double)? {
        guard !a.isEmpty, a.count == b.count, let k = signTestOrder(n: a.count, confidence: confidence) else { return nil }
        var differences = [Double](repeating: 0, count: a.count)
        for i in 0..<a.count { differences[i] = b[i] - a[i] }
        guard differences.allSatisfy(\.isFinite) else { return nil }
        differences.sort()
        let n = differences.count
        guard k <= n + 1 - k else { return nil }
        return (differences[k - 1], differences[n - k])
    }

    /// The k-th smallest (1-based) of the differences `b[j] − a[i]` over all pairs, for sorted
    /// finite samples; `nil` when k is out of range or a difference is not finite.
    public static func kthPairwiseDifference(sortedA a: [Double], sortedB b: [Double], k: Int) -> Double? {
        let n = a.count, m = b.count
        guard n > 0, m > 0, k >= 1, k <= n * m else { return nil }
        let smallest = b[0] - a[n - 1], largest = b[m - 1] - a[0]
        guard smallest.isFinite, largest.isFinite else { return nil }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let differences = PairwiseDifferences(a: a, b: b)
                return differences.select(k, in: differences.bracket(k, smallest: smallest, largest: largest))
            }
        }
    }
}

/// The differences `b[j] − a[i]` of two sorted finite samples, never listed all at once: counted at
/// or below a value, bracketed around the k-th, and listed only inside a narrow bracket.
struct PairwiseDifferences {
    let a: UnsafeBufferPointer<Double>
    let b: UnsafeBufferPointer<Double>

    /// Values (as ``OrderedDouble`` keys) with the count of differences at or below each:
    /// `countLow < k ≤ countHigh`.
    struct Bracket {
        var low: UInt64
        var high: UInt64
        var countLow: Int
        var countHigh: Int
    }

    /// At most this many differences are listed: the bracket narrows until it holds no more.
    var listLimit: Int { 2 * (a.count + b.count) }

    /// The number of differences at or below t: for each b[j] (ascending), the a[i] with
    /// b[j] − a[i] ≤ t form a suffix that starts further right as j grows.
    func count(atMost t: Double) -> Int {
        let n = a.count
        var p = 0, total = 0
        for j in 0..<b.count {
            let bj = b[j]
            while p < n && bj - a[p] > t { p += 1 }
            total += n - p
        }
        return total
    }

    /// Narrows `(smallest − 1 ulp, largest]` around the k-th difference until it holds at most
    /// ``listLimit`` differences or two adjacent doubles. Mostly a guess by interpolating the counts
    /// (aiming a little above k, then a little below, so two steps often leave few enough to list), or
    /// halves of the value span; every fourth step halves the bit patterns instead, so at most 4 × 64
    /// steps whatever the values.
    func bracket(_ k: Int, smallest: Double, largest: Double) -> Bracket {
        var bracket = Bracket(low: OrderedDouble.key(smallest) &- 1, high: OrderedDouble.key(largest), countLow: 0, countHigh: a.count * b.count)
        var step = 0
        while bracket.high &- bracket.low > 1 && bracket.countHigh - bracket.countLow > listLimit {
            step += 1
            let mid = step % 4 == 0 ? bracket.low &+ (bracket.high &- bracket.low) / 2 : guess(k, in: bracket, step: step)
            let c = count(atMost: OrderedDouble.value(mid))
            if c >= k {
                bracket.high = mid
                bracket.countHigh = c
            } else {
                bracket.low = mid
                bracket.countLow = c
            }
        }
        return bracket
    }

    /// The next value to count at: interpolated between the bracket's counts (on steps 1 and 3 of
    /// four), or the middle of its value span; the middle of its bit patterns when that falls outside.
    func guess(_ k: Int, in bracket: Bracket, step: Int) -> UInt64 {
        let low = OrderedDouble.value(bracket.low), high = OrderedDouble.value(bracket.high)
        var guess = low / 2 + high / 2
        if step % 4 != 2 && low.isFinite {
            let target = Double(k) + (step % 4 == 1 ? 1 : -1) * Double(listLimit) / 3
            let share = (target - Double(bracket.countLow)) / Double(bracket.countHigh - bracket.countLow)
            if share > 0 && share < 1 { guess = low + (high - low) * share }
        }
        let middle = OrderedDouble.key(guess)
        return guess.isFinite && middle > bracket.low && middle < bracket.high ? middle : bracket.low &+ (bracket.high &- bracket.low) / 2
    }

    /// The k-th difference: the bracket's high end when it spans two adjacent doubles, else picked
    /// from the differences listed in (low, high] (selection, not a sort of all of them).
    func select(_ k: Int, in bracket: Bracket) -> Double {
        let high = OrderedDouble.value(bracket.high)
        if bracket.high &- bracket.low <= 1 { return high }
        let low = OrderedDouble.value(bracket.low)
        let n = a.count
        var between: [Double] = []
        between.reserveCapacity(bracket.countHigh - bracket.countLow)
        var pHigh = 0, pLow = 0
        for j in 0..<b.count {
            let bj = b[j]
            while pHigh < n && bj - a[pHigh] > high { pHigh += 1 }
            while pLow < n && bj - a[pLow] > low { pLow += 1 }
            var i = pHigh
            while i < pLow {
                between.append(bj - a[i])
                i += 1
            }
        }
        let index = k - bracket.countLow - 1
        guard index >= 0 && index < between.count else { return high }
        return between.withUnsafeMutableBufferPointer { Selection.select($0, index) }
    }
}

/// Doubles as unsigned integers in the same order, so a bisection can halve the representable
/// values between two doubles (at most 64 halvings) rather than their numeric span.
enum OrderedDouble {
    static func key(_ x: Double) -> UInt64 {
        let bits = x.bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    static func value(_ key: UInt64) -> Double {
        key & (1 << 63) != 0 ? Double(bitPattern: key & ~(1 << 63)) : Double(bitPattern: ~key)
    }
}

/// The standard normal distribution's quantile function, by bisection on `erfc` (60 halvings:
/// exact to double precision; called once per comparison, not per phase).
public enum NormalDistribution {
    /// The value z with P(Z ≤ z) = p, for 0 < p < 1 (±∞ at the ends, NaN outside).
    public static func quantile(_ p: Double) -> Double {
        guard p.isFinite, p >= 0, p <= 1 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        var lo = -40.0, hi = 40.0
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            // P(Z ≤ mid) = erfc(−mid/√2)/2
            if erfc(-mid / 2.0.squareRoot()) / 2 < p { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}

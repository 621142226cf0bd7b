/// A bootstrap confidence interval for the difference of medians (B − A), deterministic: the same
/// samples always give the same interval (a fixed-seed generator), so reports and tests are stable.
public enum Bootstrap {
    /// The `confidence` (e.g. 0.99) percentile interval of median(B*) − median(A*) over `resamples`,
    /// each side resampled on its own.
    public static func medianDifferenceInterval(
        _ a: [Double], _ b: [Double], confidence: Double = 0.99,
        resamples: Int = 2000, seed: UInt64 = 0x5EED
    ) -> (lower: Double, upper: Double)? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        return interval(a, b, confidence: confidence, resamples: resamples, seed: seed) { generator, sampleA, sampleB in
            for i in 0..<a.count { sampleA[i] = a[Int(generator.next() % UInt64(a.count))] }
            for i in 0..<b.count { sampleB[i] = b[Int(generator.next() % UInt64(b.count))] }
        }
    }

    /// The interval for paired samples: pairs (a[i], b[i]) are resampled together, so what two
    /// neighbouring runs share stays together. `nil` unless both have the same, non-zero size.
    public static func pairedMedianDifferenceInterval(
        _ a: [Double], _ b: [Double], confidence: Double = 0.99,
        resamples: Int = 2000, seed: UInt64 = 0x5EED
    ) -> (lower: Double, upper: Double)? {
        guard !a.isEmpty, a.count == b.count else { return nil }
        return interval(a, b, confidence: confidence, resamples: resamples, seed: seed) { generator, sampleA, sampleB in
            for i in 0..<a.count {
                let k = Int(generator.next() % UInt64(a.count))
                sampleA[i] = a[k]
                sampleB[i] = b[k]
            }
        }
    }

    /// The percentile interval of median(B*) − median(A*), where `draw` fills each resample.
    private static func interval(
        _ a: [Double], _ b: [Double], confidence: Double, resamples: Int, seed: UInt64,
        draw: (inout SplitMix64, inout [Double], inout [Double]) -> Void
    ) -> (lower: Double, upper: Double) {
        var generator = SplitMix64(seed: seed)
        var differences: [Double] = []
        differences.reserveCapacity(resamples)
        var sampleA = [Double](repeating: 0, count: a.count)
        var sampleB = [Double](repeating: 0, count: b.count)
        for _ in 0..<resamples {
            draw(&generator, &sampleA, &sampleB)
            differences.append(Selection.median(&sampleB) - Selection.median(&sampleA))
        }
        differences.sort()
        let tail = (1 - confidence) / 2
        return (Summary.quantile(differences, tail), Summary.quantile(differences, 1 - tail))
    }
}

/// The median by selection (Hoare's quickselect, median-of-three pivots): O(n) on average, where
/// sorting is O(n log n). The values are reordered.
enum Selection {
    /// The median of `values` (the mean of the two middle ones for an even count), as
    /// ``Summary/quantile(_:_:)`` gives it for q = 0.5; NaN when empty.
    static func median(_ values: inout [Double]) -> Double {
        let n = values.count
        guard n > 0 else { return .nan }
        return values.withUnsafeMutableBufferPointer { buffer in
            let upper = select(buffer, n / 2)
            guard n % 2 == 0 else { return upper }
            // The lower middle one is the largest of the values left of n/2.
            var lower = buffer[0]
            for i in 1..<(n / 2) where buffer[i] > lower { lower = buffer[i] }
            return lower + (upper - lower) * 0.5
        }
    }

    /// Reorders `buffer` so that index `k` holds the value a sort would put there, and returns it.
    static func select(_ buffer: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
        var lo = 0, hi = buffer.count - 1
        // Each round drops at least one value from [lo, hi], so at most `count` rounds.
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if buffer[mid] < buffer[lo] { buffer.swapAt(mid, lo) }
            if buffer[hi] < buffer[lo] { buffer.swapAt(hi, lo) }
            if buffer[hi] < buffer[mid] { buffer.swapAt(hi, mid) }
            let pivot = buffer[mid]
            var i = lo, j = hi
            while i <= j {
                while buffer[i] < pivot { i += 1 }
                while pivot < buffer[j] { j -= 1 }
                if i <= j { buffer.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return buffer[k]
    }
}

/// A small, fast, seedable generator (Vigna's SplitMix64): the same seed, the same numbers.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A bootstrap confidence interval for the difference of medians (B − A), deterministic: the same
/// samples always give the same interval (a fixed-seed generator), so reports and tests are stable.
public enum Bootstrap {
    /// The `confidence` (e.g. 0.99) percentile interval of median(B*) − median(A*) over `resamples`,
    /// each side resampled on its own.
    public static func medianDifferenceInterval(_ a: [Double], _ b: [Double], confidence: Double = 0.99,
                                                resamples: Int = 2000, seed: UInt64 = 0x5EED) -> (lower: Double, upper: Double)? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        return interval(a, b, confidence: confidence, resamples: resamples, seed: seed) { generator, sampleA, sampleB in
            for i in 0..<a.count { sampleA[i] = a[Int(generator.next() % UInt64(a.count))] }
            for i in 0..<b.count { sampleB[i] = b[Int(generator.next() % UInt64(b.count))] }
        }
    }

    /// The interval for paired samples: pairs (a[i], b[i]) are resampled together, so what two
    /// neighbouring runs share stays together. `nil` unless both have the same, non-zero size.
    public static func pairedMedianDifferenceInterval(_ a: [Double], _ b: [Double], confidence: Double = 0.99,
                                                      resamples: Int = 2000, seed: UInt64 = 0x5EED) -> (lower: Double, upper: Double)? {
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
    private static func interval(_ a: [Double], _ b: [Double], confidence: Double, resamples: Int, seed: UInt64,
                                 draw: (inout SplitMix64, inout [Double], inout [Double]) -> Void) -> (lower: Double, upper: Double) {
        var generator = SplitMix64(seed: seed)
        var differences: [Double] = []
        differences.reserveCapacity(resamples)
        var sampleA = [Double](repeating: 0, count: a.count)
        var sampleB = [Double](repeating: 0, count: b.count)
        for _ in 0..<resamples {
            draw(&generator, &sampleA, &sampleB)
            sampleA.sort()
            sampleB.sort()
            differences.append(Summary.quantile(sampleB, 0.5) - Summary.quantile(sampleA, 0.5))
        }
        differences.sort()
        let tail = (1 - confidence) / 2
        return (Summary.quantile(differences, tail), Summary.quantile(differences, 1 - tail))
    }
}

/// A small, fast, seedable generator (Vigna's SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import CTierReference
import LaunchCore

/// The core's clock as a dependent chain of additions sees it (`lp_ref_clock`: one cycle each on
/// any x86-64 or arm64 core). Not a reference workload: no tier's factor depends on it. It measures
/// what a calibration cannot take out: on a shared or frequency-scaled host the core's clock moves
/// from minute to minute, and every reference workload moves with it (docs/tiers.md, "What still
/// moves a calibration").
public enum HostClock {
    /// Additions per probe: 8 × 2^17, about 0.25 ms at 4 GHz.
    static let cycles: UInt64 = 8 << 17

    /// The core's clock in GHz: the fastest of `tries` probes, each timed by the thread's CPU time
    /// (so preemption does not slow it), after one untimed probe. `nil` where the thread's CPU time
    /// cannot be read.
    public static func gigahertz(tries: Int = 40) -> Double? {
        _ = chain(cycles / 8)
        var best = UInt64.max
        for _ in 0..<max(1, tries) {
            let start = MonotonicClock.threadCPUNanoseconds()
            _ = chain(cycles / 8)
            let end = MonotonicClock.threadCPUNanoseconds()
            if end > start { best = min(best, end - start) }
        }
        guard best != .max else { return nil }
        return Double(cycles) / Double(best)
    }

    /// The probe's chain: `iterations` × 8 dependent additions of the iteration's index to 1, so
    /// 1 + 8 × (0 + 1 + … + (iterations − 1)).
    static func chain(_ iterations: UInt64) -> UInt64 {
        lp_ref_clock(iterations)
    }
}

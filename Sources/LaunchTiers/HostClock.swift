import CTierReference
import LaunchCore

/// The core's clock as a dependent chain of additions sees it (`lp_ref_clock`: one cycle each on
/// any x86-64 or arm64 core). Not a reference workload: on a shared or frequency-scaled host the
/// core's clock moves from minute to minute, and every reference workload moves with it (docs/tiers.md,
/// "What still moves a calibration"); read beside them it counts a calibration in clock cycles, which
/// hold still (docs/tiers.md, "Counted in clock cycles").
public enum HostClock {
    /// Additions per probe: 8 × 2^17, about 0.25 ms at 4 GHz.
    static let cycles: UInt64 = 8 << 17

    /// One try of the probe, timed by two clocks at once (nanoseconds).
    struct Try: Equatable {
        /// The monotonic clock's time for the try: never shorter than the work, longer when the
        /// thread was preempted or its virtual CPU stopped.
        var wall: UInt64
        /// The thread's CPU time for it: not lengthened by preemption, but on a virtual machine the
        /// kernel takes the time the hypervisor stopped its CPU (steal) out of it, and it can read
        /// short: here a try's CPU time was up to 2.6% under the wall time of the same try, which no
        /// work can be (4,000 tries at load 11). Under load the fastest try by CPU time alone once
        /// read 6.13 GHz on this 4.2 GHz host.
        var cpu: UInt64
    }

    /// Two clocks agree on a try when they differ by at most this fraction of its wall time (their
    /// reads cost under 1%: 3,011 of 4,000 tries agreed within 0.5% at load 11).
    static let agreement = 0.01

    /// The core's clock in GHz, from `tries` probes after one untimed probe (``reading(of:)``); `nil`
    /// when the probe was disturbed (no two agreeing tries within 1% of each other) or the thread's
    /// CPU time cannot be read.
    public static func gigahertz(tries: Int = 40) -> Double? {
        _ = chain(cycles / 8)
        var all: [Try] = []
        all.reserveCapacity(max(1, tries))
        for _ in 0..<max(1, tries) { all.append(timedTry()) }
        return reading(of: all)
    }

    /// One probe timed by the wall clock and the thread's CPU time, the CPU time read inside the
    /// wall readings.
    static func timedTry() -> Try {
        let wall = MonotonicClock.nanoseconds()
        let cpu = MonotonicClock.threadCPUNanoseconds()
        _ = chain(cycles / 8)
        let cpuEnd = MonotonicClock.threadCPUNanoseconds()
        let wallEnd = MonotonicClock.nanoseconds()
        return Try(wall: wallEnd > wall ? wallEnd - wall : 0, cpu: cpuEnd > cpu ? cpuEnd - cpu : 0)
    }

    /// The clock `tries` show: the fastest try whose two clocks agree (nothing preempted it and
    /// neither clock misread it) and that another agreeing try confirms within 1%, timed by its wall
    /// clock (which a disturbance only lengthens). A lone fast try is refused, whatever made it
    /// fast; `nil` when no agreeing try is confirmed (the probe was disturbed throughout).
    static func reading(of tries: [Try]) -> Double? {
        let agreeing = tries.filter { $0.wall > 0 && $0.cpu > 0 && Double(max($0.wall, $0.cpu) - min($0.wall, $0.cpu)) <= agreement * Double($0.wall) }
            .map(\.wall).sorted()
        guard agreeing.count >= 2 else { return nil }
        for (fastest, next) in zip(agreeing, agreeing.dropFirst()) where Double(next) <= Double(fastest) * (1 + agreement) {
            return Double(cycles) / Double(fastest)
        }
        return nil
    }

    /// The probe's chain: `iterations` × 8 dependent additions of the iteration's index to 1, so
    /// 1 + 8 × (0 + 1 + … + (iterations − 1)).
    static func chain(_ iterations: UInt64) -> UInt64 {
        lp_ref_clock(iterations)
    }
}

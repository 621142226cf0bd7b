import CClockChain

/// The core's clock as a dependent chain of additions sees it (`lp_clock_chain`: one cycle each on
/// any x86-64 or arm64 core), timed in tries of ``cycles``. Not a reference workload: on a shared
/// or frequency-scaled host the core's clock moves from minute to minute, and all work moves with
/// it. A calibration reads it beside its reference workloads (LaunchTiers' `HostClock`) and is kept
/// in clock cycles; the emulated waits of a run on a device tier read it while they spin
/// (``ClockTries``) and stretch the run at the clock it ran at (docs/tiers.md, "Counted in clock
/// cycles").
public enum ClockProbe {
    /// The clocks a core can have, in GHz: a reading outside is a misreading, kept as unknown.
    public static let plausibleGigahertz = 0.05...20.0

    /// Additions per try: 8 × 2^17, about 0.25 ms at 4 GHz.
    public static let cycles: UInt64 = 8 << 17

    /// One try, timed by two clocks at once (nanoseconds).
    public struct Try: Equatable, Sendable {
        /// The monotonic clock's time for the try: never shorter than the work, longer when the
        /// thread was preempted or its virtual CPU stopped.
        public var wall: UInt64
        /// The thread's CPU time for it: not lengthened by preemption, but on a virtual machine the
        /// kernel takes the time the hypervisor stopped its CPU (steal) out of it, and it can read
        /// short: here a try's CPU time was up to 2.6% under the wall time of the same try, which no
        /// work can be (4,000 tries at load 11). Under load the fastest try by CPU time alone once
        /// read 6.13 GHz on this 4.2 GHz host.
        public var cpu: UInt64

        /// Whether the two clocks agree on the try: they differ by at most ``agreement`` of its wall
        /// time (nothing preempted it and neither clock misread it).
        public var isAgreed: Bool {
            wall > 0 && cpu > 0 && Double(max(wall, cpu) - min(wall, cpu)) <= agreement * Double(wall)
        }
    }

    /// Two clocks agree on a try when they differ by at most this fraction of its wall time (their
    /// reads cost under 1%: 3,011 of 4,000 tries agreed within 0.5% at load 11).
    public static let agreement = 0.01

    /// One try timed by the wall clock and the thread's CPU time, the CPU time read inside the wall
    /// readings.
    public static func timedTry() -> Try {
        let wall = MonotonicClock.nanoseconds()
        let cpu = MonotonicClock.threadCPUNanoseconds()
        _ = chain(cycles / 8)
        let cpuEnd = MonotonicClock.threadCPUNanoseconds()
        let wallEnd = MonotonicClock.nanoseconds()
        return Try(wall: wallEnd > wall ? wallEnd - wall : 0, cpu: cpuEnd > cpu ? cpuEnd - cpu : 0)
    }

    /// The clock in GHz `tries` show: the fastest try whose two clocks agree and that another
    /// agreeing try confirms within 1%, timed by its wall clock (which a disturbance only lengthens).
    /// A lone fast try is refused, whatever made it fast; `nil` when no agreeing try is confirmed (the
    /// probe was disturbed throughout).
    public static func reading(of tries: [Try]) -> Double? {
        confirmedFastest(tries.filter(\.isAgreed).map(\.wall).sorted()).map(gigahertz(wall:))
    }

    /// The fastest of `walls` (agreeing tries' wall times, ascending) that the next confirms within 1%.
    static func confirmedFastest(_ walls: some Collection<UInt64>) -> UInt64? {
        for (fastest, next) in zip(walls, walls.dropFirst()) where Double(next) <= Double(fastest) * (1 + agreement) {
            return fastest
        }
        return nil
    }

    /// The clock in GHz a try of `wall` nanoseconds shows.
    public static func gigahertz(wall: UInt64) -> Double {
        Double(cycles) / Double(max(1, wall))
    }

    /// The probe's chain: `iterations` × 8 dependent additions of the iteration's index to 1, so
    /// 1 + 8 × (0 + 1 + … + (iterations − 1)).
    public static func chain(_ iterations: UInt64) -> UInt64 {
        lp_clock_chain(iterations)
    }
}

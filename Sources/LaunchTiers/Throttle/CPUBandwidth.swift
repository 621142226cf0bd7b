/// The kernel's CPU bandwidth control for a cpu factor F on a device of C cores: the run's cgroup
/// may use ``quotaMicroseconds`` of CPU time per ``periodMicroseconds`` of wall time, C/F of a CPU
/// (period × C ÷ F).
///
/// **Cores.** The quota is shared by all the cgroup's threads, so it is the device's C cores' worth,
/// each slowed F times: up to C threads computing at once each run F times slower; k > C threads
/// share C/F of a CPU and are each stretched k·F/C, as on the device. (The host must have the cores
/// too: on 2 CPUs, a 4-core tier's 4 threads still share 2.)
///
/// **Why the device's cores, not the host's.** 1/F of each of the host's N CPUs (N/F per period)
/// lets a single-threaded program run N/F of the time: F/N slower, half the factor on this 2-core
/// machine (measured: 26.8× for F = 59). A tier that states no cores gets one core's worth (a
/// launch is mostly one thread).
///
/// **Why a 1 ms quota per core.** The quota is the kernel's minimum, 1 ms (per core), and the period F ms. A program runs
/// its quota at the start of each period and waits the rest; when it ends mid-period the rest is not
/// waited, so a shorter quota is a finer grain: in a first experiment here (HZ 250, wall time over
/// the CPU time asked for), a 50 ms CPU-bound program stretched 56.3× for F = 59 with a 1 ms quota,
/// 56.2× with 2 ms and 52.5× with 5 ms; 20 ms programs 53×, 49× and 37×. The kernel charges CPU time at its tick (4 ms here), so the real grain is the
/// tick: bursts of up to a tick are followed by the periods that pay them back.
public struct CPUBandwidth: Equatable, Sendable {
    /// The quota of a throttled run per core: the kernel's minimum (1 ms).
    public static let quotaMicroseconds = 1000
    /// The periods the kernel accepts: 1 ms to 1 s.
    public static let periodRange = 1000...1_000_000

    /// CPU time per period, or `nil` for no limit (a factor of 1).
    public var quotaMicroseconds: Int?
    /// The period: F × the quota, rounded to a microsecond (100 ms, the kernel's default, when unlimited).
    public var periodMicroseconds: Int

    /// The bandwidth for `factor` and `cores`, which must be in ``ThrottleSpec/factorRange`` and
    /// ``ThrottleSpec/coreRange`` (clamped to them otherwise). A factor of 1 sets no limit.
    public init(factor: Double, cores: Int = 1) {
        let clamped = factor.isFinite ? min(max(factor, ThrottleSpec.factorRange.lowerBound), ThrottleSpec.factorRange.upperBound) : 1
        let cores = min(max(cores, ThrottleSpec.coreRange.lowerBound), ThrottleSpec.coreRange.upperBound)
        self.cores = cores
        if clamped == 1 {
            quotaMicroseconds = nil
            periodMicroseconds = 100_000
        } else {
            quotaMicroseconds = Self.quotaMicroseconds * cores
            let period = Int((clamped * Double(Self.quotaMicroseconds)).rounded())
            periodMicroseconds = min(max(period, Self.periodRange.lowerBound), Self.periodRange.upperBound)
        }
    }

    /// The device's cores the quota is worth.
    public var cores: Int

    /// The factor the kernel applies to each of up to ``cores`` threads: period × cores ÷ quota (1 when unlimited).
    public var effectiveFactor: Double {
        guard let quota = quotaMicroseconds else { return 1 }
        return Double(periodMicroseconds) * Double(cores) / Double(quota)
    }

    /// `cpu.cfs_quota_us` (cgroup v1): the quota, or `-1` for none.
    var v1Quota: String { quotaMicroseconds.map(String.init) ?? "-1" }
    /// `cpu.cfs_period_us` (cgroup v1).
    var v1Period: String { String(periodMicroseconds) }
    /// `cpu.max` (cgroup v2): `QUOTA PERIOD`, the quota `max` for none.
    var v2Max: String { "\(quotaMicroseconds.map(String.init) ?? "max") \(periodMicroseconds)" }

    /// One line for a report: `1 ms of CPU per 59 ms` (`2 ms` for 2 cores) or `no CPU limit`.
    public var summary: String {
        guard let quota = quotaMicroseconds else { return "no CPU limit" }
        return "\(Self.milliseconds(quota)) of CPU per \(Self.milliseconds(periodMicroseconds))"
    }

    private static func milliseconds(_ microseconds: Int) -> String {
        microseconds % 1000 == 0 ? "\(microseconds / 1000) ms" : "\(Double(microseconds) / 1000) ms"
    }
}

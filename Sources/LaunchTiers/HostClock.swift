import LaunchCore

/// The core's clock now (LaunchCore's ``ClockProbe``), read beside a calibration's reference
/// workloads so that it is counted in clock cycles, which hold still while the clock moves
/// (docs/tiers.md, "Counted in clock cycles"), and by `doctor`.
public enum HostClock {
    /// The core's clock in GHz, from `tries` probes after one untimed probe (``ClockProbe/reading(of:)``);
    /// `nil` when the probe was disturbed (no two agreeing tries within 1% of each other) or the
    /// thread's CPU time cannot be read.
    public static func gigahertz(tries: Int = 40) -> Double? {
        _ = ClockProbe.chain(ClockProbe.cycles / 8)
        var all: [ClockProbe.Try] = []
        all.reserveCapacity(max(1, tries))
        for _ in 0..<max(1, tries) { all.append(ClockProbe.timedTry()) }
        return ClockProbe.reading(of: all)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The clock readings that frame one run: taken by the launcher just before the spawn and when the
/// run ended (the process exited, or was found ready). A trace's times are placed between them.
public struct SpawnClock: Equatable, Sendable {
    /// `CLOCK_MONOTONIC`, in nanoseconds, just before the spawn: the origin of the run's times.
    public var monotonicNanoseconds: UInt64
    /// `CLOCK_REALTIME` (the wall clock), in seconds since 1970, read together with ``monotonicNanoseconds``.
    public var realtimeSeconds: Double
    /// `CLOCK_MONOTONIC`, in nanoseconds, when the run ended (the process exited or was ready).
    public var endMonotonicNanoseconds: UInt64

    /// The readings at the spawn, and the end of the run: the spawn itself (`nil`) until it is known.
    public init(monotonicNanoseconds: UInt64, realtimeSeconds: Double, endMonotonicNanoseconds: UInt64? = nil) {
        self.monotonicNanoseconds = monotonicNanoseconds
        self.realtimeSeconds = realtimeSeconds
        self.endMonotonicNanoseconds = endMonotonicNanoseconds ?? monotonicNanoseconds
    }

    /// Both clocks read now, as the launcher does just before a spawn; the end is the same moment
    /// until it is set.
    public static func now() -> SpawnClock {
        var wall = timespec()
        let monotonic = MonotonicClock.nanoseconds()
        clock_gettime(CLOCK_REALTIME, &wall)
        return SpawnClock(monotonicNanoseconds: monotonic, realtimeSeconds: Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9)
    }

    /// Seconds from the spawn to the end of the run (0 if the end reading came first).
    public var duration: Double {
        endMonotonicNanoseconds >= monotonicNanoseconds
            ? LaunchClock.seconds(endMonotonicNanoseconds - monotonicNanoseconds) : 0
    }
}

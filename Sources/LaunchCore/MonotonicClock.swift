#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the system's monotonic clock (`CLOCK_MONOTONIC`) in nanoseconds.
///
/// The monotonic clock is unaffected by wall-clock changes (NTP steps, `date -s`), and is
/// the same clock in every process on the machine, so a parent and a child can compare readings.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary, fixed point in the past (boot, on Linux).
    @inlinable
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

extension MonotonicClock {
    /// The calling thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`): what the thread ran,
    /// without the time other threads held the cores.
    public static func threadCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Busy-waits until the monotonic clock reads `deadline` nanoseconds. Spinning, unlike sleeping,
    /// keeps the core awake and its caches warm, so the work after the wait runs as fast as before it
    /// (a sleep lets the core idle down, and the next phase would run slower and be stretched again).
    public static func spin(until deadline: UInt64) {
        while nanoseconds() < deadline {}
    }

    /// Sleeps until the monotonic clock reads `deadline` nanoseconds (sleeping, not spinning, for
    /// all but the last 50 µs, which are spun for accuracy).
    public static func sleep(until deadline: UInt64) {
        let spin: UInt64 = 50_000
        while true {
            let now = nanoseconds()
            if now >= deadline { return }
            if deadline - now <= spin { continue }
            let target = deadline - spin
            var ts = timespec(tv_sec: Int(target / 1_000_000_000), tv_nsec: Int(target % 1_000_000_000))
            _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
        }
    }
}

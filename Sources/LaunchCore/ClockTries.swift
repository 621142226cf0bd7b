import Synchronization

/// The core's clock as a run on a device tier reads it while its emulated waits spin: the wait runs
/// ``ClockProbe`` tries instead of idling, and keeps the fastest agreeing ones (a try costs nothing
/// the wait would not spend). A run's hundreds of milliseconds of waits give thousands of tries
/// (the default launch on iphone-3gs: 0.6 s of waits) on the core and at the moment its own work ran, so the run is stretched at the clock it ran at
/// (``DeviceEmulation/extraNanoseconds(for:selfNanoseconds:atClock:)``), where one probe before the
/// run (10 ms, another moment, maybe another core) proved a worse estimate than none.
public struct ClockTries: Sendable {
    /// The fastest agreeing tries' wall times, ascending: at most ``kept``.
    private(set) var fastest: [UInt64] = []

    /// How many of the fastest tries are kept: a confirmed reading needs two within 1%.
    static let kept = 16

    /// A try is started only when the wait has this much longer than the fastest try left to run,
    /// so that it ends before the wait's deadline.
    static let margin = 1.25
    /// Before any try: a try is started only when this many nanoseconds are left (a try lasts
    /// 0.25 ms at 4 GHz, 1 ms at 1 GHz).
    static let firstTryNanoseconds: UInt64 = 1_000_000

    public init() {}

    /// Keeps `probe` if its clocks agree and it is among the fastest.
    public mutating func add(_ probe: ClockProbe.Try) {
        guard probe.isAgreed else { return }
        let index = fastest.firstIndex { $0 > probe.wall } ?? fastest.endIndex
        guard index < Self.kept else { return }
        fastest.insert(probe.wall, at: index)
        if fastest.count > Self.kept { fastest.removeLast() }
    }

    /// The fastest try another confirms within 1% (``ClockProbe/reading(of:)``'s rule), in nanoseconds.
    public var confirmed: UInt64? { ClockProbe.confirmedFastest(fastest) }

    /// The time a wait must have left to start a try.
    var neededNanoseconds: UInt64 {
        guard let first = fastest.first else { return Self.firstTryNanoseconds }
        return UInt64(Double(first) * Self.margin)
    }

    /// Spins until the monotonic clock reads `deadline`, running clock tries while one fits, and
    /// publishes the confirmed reading for the whole process (``ClockTries/processGigahertz``).
    public mutating func spin(until deadline: UInt64) {
        while true {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else { break }
            guard deadline - now > neededNanoseconds else {
                MonotonicClock.spin(until: deadline)
                break
            }
            add(ClockProbe.timedTry())
        }
        if let wall = confirmed { Self.publish(wall) }
    }

    /// Lowers the process's fastest confirmed try to `wall` (a compare-and-exchange loop: the
    /// toolchain's `Atomic.min` returns the new minimum without storing it, Swift 6.3 on Linux).
    static func publish(_ wall: UInt64) {
        var current = processFastest.load(ordering: .relaxed)
        while wall < current {
            let (exchanged, original) = processFastest.compareExchange(expected: current, desired: wall, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// The fastest confirmed try of any of this process's threads so far; `UInt64.max` for none.
    private static let processFastest = Atomic<UInt64>(.max)

    /// The core's clock in GHz this process's spins have read so far (the fastest confirmed try of
    /// any of its threads); `nil` before any.
    public static var processGigahertz: Double? {
        let wall = processFastest.load(ordering: .relaxed)
        return wall == .max ? nil : ClockProbe.gigahertz(wall: wall)
    }
}

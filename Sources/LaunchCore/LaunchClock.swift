/// The launch clock: a monotonic origin taken at the very top of `main`.
///
/// Every time launchprof reports is an offset from this origin, in seconds as `Double`
/// (the CFAbsoluteTime style), while readings are kept in nanoseconds internally.
///
/// ```swift
/// // main.swift, first statement:
/// let clock = LaunchClock.startNow()
/// ```
public struct LaunchClock: Sendable, Equatable {
    /// The `CLOCK_MONOTONIC` reading, in nanoseconds, at which the clock was started.
    public let originNanoseconds: UInt64

    /// A clock whose origin is an earlier monotonic reading (for example one taken by a parent process).
    public init(originNanoseconds: UInt64) {
        self.originNanoseconds = originNanoseconds
    }

    /// Starts a clock now. Call it as the first statement of `main`.
    @inlinable
    public static func startNow() -> LaunchClock {
        LaunchClock(originNanoseconds: MonotonicClock.nanoseconds())
    }

    /// Nanoseconds elapsed since the origin.
    @inlinable
    public func elapsedNanoseconds() -> UInt64 {
        MonotonicClock.nanoseconds() &- originNanoseconds
    }

    /// Seconds elapsed since the origin.
    @inlinable
    public func elapsedSeconds() -> Double {
        Self.seconds(elapsedNanoseconds())
    }

    /// Converts a monotonic reading to seconds since the origin (negative when it came first).
    @inlinable
    public func seconds(atReading nanoseconds: UInt64) -> Double {
        if nanoseconds >= originNanoseconds {
            return Self.seconds(nanoseconds - originNanoseconds)
        }
        return -Self.seconds(originNanoseconds - nanoseconds)
    }

    /// Converts a span of nanoseconds to seconds.
    @inlinable
    public static func seconds(_ nanoseconds: UInt64) -> Double {
        Double(nanoseconds) / 1e9
    }
}

extension LaunchClock {
    /// The clock started by ``startAtMain()``, if it was called.
    nonisolated(unsafe) public private(set) static var main: LaunchClock?

    /// Starts the process-wide launch clock and remembers it in ``main``. Call it once, as the very
    /// first statement of `main`, before any other thread exists (that is what makes the unsynchronised
    /// store safe).
    @discardableResult
    public static func startAtMain() -> LaunchClock {
        let clock = startNow()
        main = clock
        return clock
    }
}

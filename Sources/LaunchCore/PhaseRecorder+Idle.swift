extension PhaseRecorder {
    /// Runs `body`, a wait (for a deadline, for another thread), inside the innermost open phase:
    /// its time is booked like a child's, so device emulation, which stretches a phase's own time,
    /// does not stretch it (the work waited for is stretched where it runs).
    @discardableResult
    public func waiting<T>(_ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.nanoseconds()
        defer {
            let waited = MonotonicClock.nanoseconds() &- start
            let s = state
            if s.pointee.openCount > 0 {
                let index = Int(s.pointee.open[s.pointee.openCount - 1])
                s.pointee.entries[index].childNanoseconds &+= waited
            }
        }
        return try body()
    }

    /// Sleeps until the monotonic `reading`, as an animation waits for its next frame's deadline,
    /// booked as waiting (``waiting(_:)``). Returns `false` without sleeping when `reading` has passed.
    @discardableResult
    public func idle(until reading: UInt64) -> Bool {
        guard reading > MonotonicClock.nanoseconds() else { return false }
        waiting { MonotonicClock.sleep(until: reading) }
        return true
    }
}

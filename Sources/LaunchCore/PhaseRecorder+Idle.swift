extension PhaseRecorder {
    /// Sleeps until the monotonic `reading` inside the innermost open phase, as an animation waits
    /// for its next frame's deadline. The time slept is waiting, not work: it is booked like a
    /// child's time, so device emulation, which stretches a phase's own time, does not stretch it.
    /// Returns `false` without sleeping when `reading` has passed.
    @discardableResult
    public func idle(until reading: UInt64) -> Bool {
        let start = MonotonicClock.nanoseconds()
        guard reading > start else { return false }
        MonotonicClock.sleep(until: reading)
        let slept = MonotonicClock.nanoseconds() &- start
        let s = state
        if s.pointee.openCount > 0 {
            let index = Int(s.pointee.open[s.pointee.openCount - 1])
            s.pointee.entries[index].childNanoseconds &+= slept
        }
        return true
    }
}

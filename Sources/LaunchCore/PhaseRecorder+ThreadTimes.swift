extension PhaseRecorder {
    /// A thread's monotonic time, CPU time and wait for a CPU (``ThreadRunDelay``), read together, or
    /// the difference of two such readings.
    ///
    /// Device emulation reads them around a child phase whole, the recorder's own work at its begin
    /// and end included (reading counters, sampling memory, the readings after a stretch's wait), and
    /// takes that span out of the parent's self time: the recorder's work is not the app's, and
    /// stretching it by the factor (×130 for a draw phase on iphone-3gs) made a few tens of
    /// microseconds per child into milliseconds of emulated time that no change of the app moves.
    @usableFromInline
    struct ThreadTimes {
        @usableFromInline var wall: UInt64 = 0
        @usableFromInline var cpu: UInt64 = 0
        @usableFromInline var runDelay: UInt64 = 0

        @usableFromInline
        init() {}

        /// Reads the calling thread's CPU time and wait for a CPU now; `wall` is the monotonic reading
        /// the caller took (or takes) at the same moment.
        @usableFromInline
        init(wall: UInt64, runDelay reader: ThreadRunDelay?) {
            self.wall = wall
            cpu = MonotonicClock.threadCPUNanoseconds()
            runDelay = reader?.nanoseconds() ?? 0
        }

        init(wall: UInt64, cpu: UInt64, runDelay: UInt64) {
            (self.wall, self.cpu, self.runDelay) = (wall, cpu, runDelay)
        }

        /// What passed from `start` to this reading, each part at least 0.
        @usableFromInline
        func since(_ start: ThreadTimes) -> ThreadTimes {
            ThreadTimes(
                wall: wall > start.wall ? wall - start.wall : 0, cpu: cpu > start.cpu ? cpu - start.cpu : 0,
                runDelay: runDelay > start.runDelay ? runDelay - start.runDelay : 0)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Reads the calling thread's system counters (``PhaseCounters``) at a phase's begin and end:
/// `CLOCK_THREAD_CPUTIME_ID`, the wait for a CPU (``ThreadRunDelay``), `getrusage(RUSAGE_THREAD)`
/// and `/proc/thread-self/io`. The files are opened once; a reading is a clock read, one `getrusage`
/// and two `pread`s (a few microseconds, measured in BENCHMARKS.md, "Counters").
///
/// A reader must be used on the thread that made it: `/proc/thread-self` is that thread's.
public struct ThreadCounters {
    /// One reading: running totals since the thread started.
    public struct Reading: Sendable, Equatable {
        public var cpuNanoseconds: UInt64 = 0
        public var runDelayNanoseconds: UInt64 = 0
        public var minorFaults: Int = 0
        public var majorFaults: Int = 0
        public var voluntarySwitches: Int = 0
        public var involuntarySwitches: Int = 0
        public var bytesRead: UInt64 = 0
        public var bytesWritten: UInt64 = 0

        public init() {}
    }

    private let runDelay: ThreadRunDelay
    /// `/proc/thread-self/io`, or -1 when it could not be opened.
    private let io: Int32
    /// Bytes this reader's own reads of `/proc` added to the thread's `rchar`.
    private var ownBytes: UInt64 = 0

    /// Opens the calling thread's files.
    public init() {
        runDelay = ThreadRunDelay()
        #if os(Linux)
        io = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)
        #else
        io = -1
        #endif
    }

    /// The thread's counters now. Bytes read leave out this reader's own reads of `/proc`.
    public mutating func read() -> Reading {
        var reading = Reading()
        // /proc/thread-self/io first: its value never includes its own read (counted after it).
        if io >= 0 {
            var buffer = (
                UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0)
            )
            let (rchar, wchar, n) = withUnsafeMutableBytes(of: &buffer) { raw -> (UInt64, UInt64, Int) in
                let n = pread(io, raw.baseAddress, raw.count, 0)
                guard n > 0 else { return (0, 0, 0) }
                let numbers = ThreadRunDelay.firstTwoNumbers(UnsafeRawBufferPointer(rebasing: raw[0..<n]))
                return (numbers.0, numbers.1, n)
            }
            reading.bytesRead = rchar > ownBytes ? rchar - ownBytes : 0
            reading.bytesWritten = wchar
            ownBytes &+= UInt64(n)
        }
        let delay = runDelay.reading()
        reading.runDelayNanoseconds = delay.nanoseconds
        ownBytes &+= UInt64(delay.bytes)
        #if os(Linux)
        var usage = rusage()
        if getrusage(Self.rusageThread, &usage) == 0 {
            reading.minorFaults = usage.ru_minflt
            reading.majorFaults = usage.ru_majflt
            reading.voluntarySwitches = usage.ru_nvcsw
            reading.involuntarySwitches = usage.ru_nivcsw
        }
        #endif
        reading.cpuNanoseconds = MonotonicClock.threadCPUNanoseconds()
        return reading
    }

    /// `RUSAGE_THREAD` (Linux's 1; Glibc's module leaves it out without `_GNU_SOURCE`).
    static let rusageThread: Int32 = 1

    /// Whether the wait for a CPU is read (else it is left out: `nil` in the counters).
    public var hasRunDelay: Bool { runDelay.isAvailable }
    /// Whether bytes read and written are read.
    public var hasIO: Bool { io >= 0 }

    /// The counters from `start` to `end`, two readings of this reader.
    public func counters(from start: Reading, to end: Reading) -> PhaseCounters {
        func delta(_ a: UInt64, _ b: UInt64) -> UInt64 { b > a ? b - a : 0 }
        func delta(_ a: Int, _ b: Int) -> Int { b > a ? b - a : 0 }
        return PhaseCounters(
            cpuTime: LaunchClock.seconds(delta(start.cpuNanoseconds, end.cpuNanoseconds)),
            runnableTime: hasRunDelay ? LaunchClock.seconds(delta(start.runDelayNanoseconds, end.runDelayNanoseconds)) : nil,
            minorFaults: delta(start.minorFaults, end.minorFaults), majorFaults: delta(start.majorFaults, end.majorFaults),
            voluntarySwitches: delta(start.voluntarySwitches, end.voluntarySwitches),
            involuntarySwitches: delta(start.involuntarySwitches, end.involuntarySwitches),
            bytesRead: hasIO ? Int(clamping: delta(start.bytesRead, end.bytesRead)) : nil,
            bytesWritten: hasIO ? Int(clamping: delta(start.bytesWritten, end.bytesWritten)) : nil)
    }

    /// Closes the files.
    public func close() {
        runDelay.close()
        #if canImport(Glibc)
        if io >= 0 { _ = Glibc.close(io) }
        #endif
    }
}

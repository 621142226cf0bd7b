import LaunchCore

/// Test only (`test.slowdown` with `"of": "cpuTime"`): makes each part of a drawing it times use
/// `fraction` more CPU time than its own work did. After the part's work, still inside its phase, the
/// thread computes (steps of a linear congruential generator) until its CPU time has grown by
/// `fraction` × the CPU time the work took; the stage's own work outside its phases (setting up the
/// renderer, the calls between them: all its phase's CPU time outside its children) grows by the
/// fraction too, at the stage's end. The spans are those a tier stretches: a phase's work, and the
/// stage's self time, the recorder's own work at each child's begin and end left out of both.
///
/// What a time gate measures grows by the fraction asked, on any machine: a device tier stretches a
/// draw phase by the thread's CPU time, and the wall time of an undisturbed phase is its CPU time. A
/// repeat of the drawing's own rows (``RowRepeater``) adds the asked share of instructions but less
/// time (its second pass finds warm caches: +5–6% CPU time for 10% more rows, BENCHMARKS.md). The
/// thread's CPU time leaves out preemption, so the share added does not move with the load.
///
/// It counts what it timed and what it added (``workNanoseconds``, ``addedNanoseconds``), which the
/// app reports as counters, so a benchmark can print the size of the change it made. Not locked: one
/// drawing uses it, on one thread.
public final class CPUTimeSlowdown: @unchecked Sendable {
    /// The share of the work's CPU time added (0.1: 10% more).
    public let fraction: Double
    /// CPU time of the work timed so far.
    public private(set) var workNanoseconds: UInt64 = 0
    /// CPU time added so far (the computing after each part's work).
    public private(set) var addedNanoseconds: UInt64 = 0
    /// The generator's state, kept so the computing cannot be optimised away.
    public private(set) var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Generator steps between two readings of the thread's CPU time (about 1 µs of computing).
    static let stepsPerReading = 1024

    /// `fraction` from 0 to 100.
    public init(fraction: Double) {
        precondition(fraction >= 0 && fraction <= 100, "a slowdown's fraction is from 0 to 100")
        self.fraction = fraction
    }

    /// The thread's CPU time when the stage began (``beginStage()``), and what its phases took since.
    private var stageStart: UInt64 = 0
    private var phasesNanoseconds: UInt64 = 0

    /// Starts timing the stage's own work: what it does outside its phases (``phase(_:)``), which
    /// a tier stretches as the stage's self time, grows by the fraction too (``endStage()``). Call it
    /// first thing inside the stage's phase, and ``endStage()`` last thing, so the two spans match.
    public func beginStage() {
        stageStart = MonotonicClock.threadCPUNanoseconds()
        phasesNanoseconds = 0
    }

    /// Runs one of the stage's phases whole (its begin and end, and any wait a tier adds at its
    /// end), leaving its CPU time out of the stage's own; its work is slowed by ``timed(_:)`` inside.
    @discardableResult
    public func phase<T>(_ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.threadCPUNanoseconds()
        defer { phasesNanoseconds &+= MonotonicClock.threadCPUNanoseconds() &- start }
        return try body()
    }

    /// Computes for `fraction` of the stage's own CPU time since ``beginStage()``, outside its phases.
    public func endStage() {
        let spent = MonotonicClock.threadCPUNanoseconds() &- stageStart
        let own = spent > phasesNanoseconds ? spent - phasesNanoseconds : 0
        workNanoseconds &+= own
        addedNanoseconds &+= compute(forNanoseconds: UInt64((Double(own) * fraction).rounded()))
    }

    /// Runs `body`, then computes for `fraction` of the CPU time it took.
    @discardableResult
    public func timed<T>(_ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.threadCPUNanoseconds()
        let result = try body()
        let worked = MonotonicClock.threadCPUNanoseconds() &- start
        workNanoseconds &+= worked
        addedNanoseconds &+= compute(forNanoseconds: UInt64((Double(worked) * fraction).rounded()))
        return result
    }

    /// Computes until the thread's CPU time has grown by `nanoseconds`; returns by how much it grew
    /// (at least that, at most a reading's steps more).
    func compute(forNanoseconds nanoseconds: UInt64) -> UInt64 {
        guard nanoseconds > 0 else { return 0 }
        let start = MonotonicClock.threadCPUNanoseconds()
        var now = start
        var x = state
        while now &- start < nanoseconds {
            for _ in 0..<Self.stepsPerReading { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
            now = MonotonicClock.threadCPUNanoseconds()
        }
        state = x
        return now &- start
    }
}

/// Records named, nestable phases, instant marks and counters on one thread.
///
/// A recorder belongs to the thread that uses it (it is not `Sendable`): recording is two clock
/// reads and two array writes per phase, with no lock. Give each thread its own recorder, created
/// from the same ``LaunchClock``, and merge them with ``RunRecord/init(clock:recorders:)``.
///
/// ```swift
/// let clock = LaunchClock.startNow()
/// let recorder = PhaseRecorder(clock: clock)
/// let theme = try recorder.phase("loading themes", kind: .io) { try loadTheme() }
/// let token = recorder.begin("drawing", kind: .draw)
/// draw(theme)
/// recorder.mark("first frame")
/// recorder.end(token)
/// ```
public final class PhaseRecorder {
    /// A raw phase: monotonic readings in nanoseconds.
    @usableFromInline
    struct Entry {
        @usableFromInline var name: String
        @usableFromInline var kind: PhaseKind?
        @usableFromInline var afterLaunch: Bool
        @usableFromInline var parent: Int32
        @usableFromInline var depth: Int32
        @usableFromInline var start: UInt64
        @usableFromInline var end: UInt64
        // Filled only when the recorder is instrumented (device emulation or memory sampling).
        /// The kind used for emulation: the phase's own, else its parent's, else cpu.
        @usableFromInline var effectiveKind: PhaseKind
        /// Nanoseconds spent in direct children (their waits included; under emulation, the recorder's
        /// own work at their begin and end too).
        @usableFromInline var childNanoseconds: UInt64
        /// Nanoseconds of emulation waiting inside this phase, its children's included.
        @usableFromInline var waitedNanoseconds: UInt64
        @usableFromInline var residentAtStart: Int
        @usableFromInline var residentAtEnd: Int
        /// A wait for another thread (``waiting(_:_:)``): never stretched by device emulation.
        @usableFromInline var isWait: Bool
        /// The thread's CPU time at the phase's begin, and its children's CPU time (under emulation).
        @usableFromInline var cpuStart: UInt64
        @usableFromInline var childCPUNanoseconds: UInt64
        /// The thread's wait for a CPU (``ThreadRunDelay``) at the phase's begin, and during its
        /// children (under emulation).
        @usableFromInline var runDelayStart: UInt64
        @usableFromInline var childRunDelay: UInt64
        /// Under emulation: the monotonic reading taken with ``cpuStart``, after the recorder's own work
        /// at the begin: the stretched self time is timed from it.
        @usableFromInline var workStart: UInt64
        /// Under emulation: the readings before the recorder's own work at the begin (wall time, CPU
        /// time, wait for a CPU), so the parent leaves that work, and the work at the end, out of its
        /// self time (``ThreadTimes``).
        @usableFromInline var outerStart: ThreadTimes
        /// Under emulation: the CPU time from ``cpuStart`` to the phase's end (its wait included), and
        /// the self time it was stretched by (0 when it was not): what a test or a diagnosis reads.
        @usableFromInline var cpuNanoseconds: UInt64
        @usableFromInline var stretchedSelfNanoseconds: UInt64
        /// The thread's system counters at the phase's begin and end (``PhaseRecorder/recordsCounters``).
        @usableFromInline var countersStart: ThreadCounters.Reading
        @usableFromInline var countersEnd: ThreadCounters.Reading
        @usableFromInline var hasCounters: Bool

        @inlinable
        init(name: String, kind: PhaseKind?, start: UInt64, parent: Int32, depth: Int32, afterLaunch: Bool) {
            self.name = name
            self.kind = kind
            self.afterLaunch = afterLaunch
            self.parent = parent
            self.depth = depth
            self.start = start
            self.end = 0
            self.effectiveKind = kind ?? .cpu
            self.childNanoseconds = 0
            self.waitedNanoseconds = 0
            self.residentAtStart = -1
            self.residentAtEnd = -1
            self.isWait = false
            self.cpuStart = 0
            self.childCPUNanoseconds = 0
            self.runDelayStart = 0
            self.childRunDelay = 0
            self.workStart = start
            self.outerStart = ThreadTimes()
            self.cpuNanoseconds = 0
            self.stretchedSelfNanoseconds = 0
            self.countersStart = ThreadCounters.Reading()
            self.countersEnd = ThreadCounters.Reading()
            self.hasCounters = false
        }
    }

    /// The recording state, behind a pointer held in a `let`: the hot path then pays no
    /// exclusivity check, no copy-on-write check and no reference counting of arrays.
    @usableFromInline
    struct Storage {
        @usableFromInline var entries: UnsafeMutablePointer<Entry>
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int
        /// Indexes of the open phases, innermost last.
        @usableFromInline var open: UnsafeMutablePointer<Int32>
        @usableFromInline var openCount: Int
        @usableFromInline var openCapacity: Int
        @usableFromInline var afterLaunch: Bool
        /// `true` when ``emulation`` or memory sampling is on: begin and end take their slow path.
        @usableFromInline var instrumented: Bool
        @usableFromInline var emulation: DeviceEmulation?
        /// Phases at this depth or shallower sample resident memory at begin and end; -1 for none.
        @usableFromInline var memoryDepth: Int
        /// `true` when every phase boundary issues a Callgrind dump (`--metric instructions`).
        @usableFromInline var countsInstructions: Bool
        /// Phases recorded before the last ``PhaseRecorder/reset()``: Callgrind labels keep counting
        /// across a reset, as a launcher reading both parts of a report counts the phases.
        @usableFromInline var callgrindBase: Int = 0
        /// Under emulation: the thread's wait for a CPU, opened at the first instrumented phase.
        @usableFromInline var runDelay: ThreadRunDelay?
        /// With ``PhaseRecorder/recordsCounters``: the thread's counters, opened at the first phase.
        @usableFromInline var counters: ThreadCounters?
        @usableFromInline var recordsCounters: Bool = false
        /// Under emulation: nanoseconds the emulated timeline is behind, owed by the next stretch
        /// (``PhaseRecorder/emulation``).
        @usableFromInline var emulationDebt: UInt64 = 0
        /// Under emulation at a clock: the clock tries this thread's waits ran (``ClockTries``).
        @usableFromInline var clockTries = ClockTries()

        @usableFromInline mutating func updateInstrumented() {
            instrumented = emulation != nil || memoryDepth >= 0 || countsInstructions || recordsCounters
        }
    }

    /// Identifies an open phase; pass it to ``end(_:)``.
    public struct Token: Sendable, Equatable {
        @usableFromInline let index: Int32
        @inlinable init(index: Int32) { self.index = index }
    }

    /// The clock every reading is relative to.
    public let clock: LaunchClock
    /// The thread number written into every phase (0 for the thread that started the clock).
    public let thread: Int

    @usableFromInline let state: UnsafeMutablePointer<Storage>
    @usableFromInline var marks: [(name: String, time: UInt64)] = []
    @usableFromInline var counters: [(name: String, value: Int)] = []

    /// Creates a recorder. `capacity` phases are preallocated so recording does not reallocate in a typical launch.
    public init(clock: LaunchClock, thread: Int = 0, capacity: Int = 256) {
        self.clock = clock
        self.thread = thread
        let capacity = max(capacity, 1)
        state = .allocate(capacity: 1)
        state.initialize(
            to: Storage(
                entries: .allocate(capacity: capacity), count: 0, capacity: capacity,
                open: .allocate(capacity: 32), openCount: 0, openCapacity: 32, afterLaunch: false,
                instrumented: false, emulation: nil, memoryDepth: -1,
                countsInstructions: false))
    }

    deinit {
        state.pointee.runDelay?.close()
        state.pointee.counters?.close()
        state.pointee.entries.deinitialize(count: state.pointee.count)
        state.pointee.entries.deallocate()
        state.pointee.open.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// When set, new phases are marked as run after launch (lazy phases touched by a first use).
    public var recordingAfterLaunch: Bool {
        get { state.pointee.afterLaunch }
        set { state.pointee.afterLaunch = newValue }
    }

    /// Emulates a slower device: when a phase ends, its own (self) time × (factor − 1) of its kind is
    /// spent waiting inside it, so wall time, ordering and concurrency behave as on that device.
    /// The self time of `cpu`, `decode` and `draw` phases is the thread's CPU time, so time lost to
    /// other threads on the host's cores is not multiplied by the factor; an `io` phase's is wall
    /// time (the device's slower storage stretches the waiting) less the thread's wait for a CPU.
    /// A loaded host's preemption is given back rather than added: the time a phase waited for a CPU
    /// counts toward its extra time, and a wait that ends late is paid back by the next one
    /// (``stretch(_:emulation:now:cpuEnd:runDelay:)``; docs/tiers.md, "Stretching on a busy host").
    /// `nil` (the default) records host time only.
    public var emulation: DeviceEmulation? {
        get { state.pointee.emulation }
        set {
            state.pointee.emulation = newValue
            state.pointee.updateInstrumented()
        }
    }

    /// Samples resident memory at the begin and end of phases at most this deep (0: top level only);
    /// `nil` (the default) samples nothing. Each sample reads `/proc/self/statm` (a few microseconds).
    public var memorySamplingDepth: Int? {
        get { state.pointee.memoryDepth >= 0 ? state.pointee.memoryDepth : nil }
        set {
            state.pointee.memoryDepth = newValue ?? -1
            state.pointee.updateInstrumented()
        }
    }

    /// When `true`, every phase begin and end issues a Callgrind dump (``CallgrindBoundaries``), so
    /// a launcher running the process under Callgrind can count each phase's instructions. Off by
    /// default; outside Valgrind it costs a few instructions per boundary.
    public var countsInstructions: Bool {
        get { state.pointee.countsInstructions }
        set {
            state.pointee.countsInstructions = newValue
            state.pointee.updateInstrumented()
        }
    }

    /// When `true`, every phase records its thread's system counters (``PhaseCounters``: CPU time, wait
    /// for a CPU, page faults, context switches, bytes read and written), read at its begin and end
    /// (``ThreadCounters``, a few microseconds each). Off by default; the built-in app turns it on
    /// unless it counts instructions (docs/counters.md).
    public var recordsCounters: Bool {
        get { state.pointee.recordsCounters }
        set {
            state.pointee.recordsCounters = newValue
            state.pointee.updateInstrumented()
        }
    }

    /// Opens a phase nested inside the innermost open phase.
    @inlinable
    @discardableResult
    public func begin(_ name: String, kind: PhaseKind? = nil) -> Token {
        let now = MonotonicClock.nanoseconds()
        let s = state
        if _slowPath(s.pointee.count == s.pointee.capacity || s.pointee.openCount == s.pointee.openCapacity) { grow() }
        let index = s.pointee.count
        let depth = s.pointee.openCount
        let parent = depth > 0 ? s.pointee.open[depth - 1] : -1
        (s.pointee.entries + index).initialize(
            to: Entry(
                name: name, kind: kind, start: now, parent: parent,
                depth: Int32(truncatingIfNeeded: depth), afterLaunch: s.pointee.afterLaunch))
        s.pointee.count = index + 1
        s.pointee.open[depth] = Int32(truncatingIfNeeded: index)
        s.pointee.openCount = depth + 1
        if _slowPath(s.pointee.instrumented) { beganInstrumented(index) }
        return Token(index: Int32(truncatingIfNeeded: index))
    }

    /// Closes the innermost open phase.
    @inlinable
    public func end() {
        let now = MonotonicClock.nanoseconds()
        let s = state
        guard s.pointee.openCount > 0 else { return }
        s.pointee.openCount -= 1
        let index = Int(s.pointee.open[s.pointee.openCount])
        s.pointee.entries[index].end = _slowPath(s.pointee.instrumented) ? endedInstrumented(index, now) : now
    }

    /// Closes the phase `token` opened, and any phases still open inside it.
    @inlinable
    public func end(_ token: Token) {
        var now = MonotonicClock.nanoseconds()
        let s = state
        while s.pointee.openCount > 0 {
            let index = s.pointee.open[s.pointee.openCount - 1]
            guard index >= token.index else { break }
            s.pointee.openCount -= 1
            if _slowPath(s.pointee.instrumented) { now = endedInstrumented(Int(index), now) }
            s.pointee.entries[Int(index)].end = now
        }
    }

    /// Slow path of ``begin(_:kind:)``: inherits the emulation kind and samples memory.
    @usableFromInline
    @inline(never)
    func beganInstrumented(_ index: Int) {
        let s = state
        let entry = s.pointee.entries + index
        if s.pointee.emulation != nil {
            if s.pointee.runDelay == nil { s.pointee.runDelay = ThreadRunDelay() }
            entry.pointee.outerStart = ThreadTimes(wall: entry.pointee.start, runDelay: s.pointee.runDelay)
        }
        if entry.pointee.kind == nil, entry.pointee.parent >= 0 {
            entry.pointee.effectiveKind = s.pointee.entries[Int(entry.pointee.parent)].effectiveKind
        }
        if Int(entry.pointee.depth) <= s.pointee.memoryDepth {
            entry.pointee.residentAtStart = ProcessMemory.residentBytes() ?? -1
            // The phase starts after the sample, so reading /proc is not counted as its work.
            entry.pointee.start = MonotonicClock.nanoseconds()
        }
        if s.pointee.recordsCounters {
            if s.pointee.counters == nil { s.pointee.counters = ThreadCounters() }
            entry.pointee.countersStart = s.pointee.counters!.read()
            entry.pointee.hasCounters = true
        }
        // After the recorder's other readings, so the stretched self time is the phase's work only.
        if s.pointee.emulation != nil {
            entry.pointee.runDelayStart = s.pointee.runDelay?.nanoseconds() ?? 0
            entry.pointee.cpuStart = MonotonicClock.threadCPUNanoseconds()
            entry.pointee.workStart = MonotonicClock.nanoseconds()
        }
        // Last, so the phase's count starts after the recorder's own work.
        if s.pointee.countsInstructions { CallgrindBoundaries.begin(thread: thread, index: s.pointee.callgrindBase + index) }
    }

    /// Slow path of `end`: waits out the emulated device's extra time, samples memory, and credits
    /// the parent. Returns the phase's end reading (after any wait).
    @usableFromInline
    @inline(never)
    func endedInstrumented(_ index: Int, _ now: UInt64) -> UInt64 {
        let s = state
        // First, so the phase's count ends before the recorder's own work.
        if s.pointee.countsInstructions { CallgrindBoundaries.end(thread: thread, index: s.pointee.callgrindBase + index) }
        let entry = s.pointee.entries + index
        var end = now
        var cpuEnd: UInt64 = 0
        var runDelay: UInt64 = 0
        if s.pointee.emulation != nil {
            // Before the counters are read, so the stretched self time is the phase's work only.
            cpuEnd = MonotonicClock.threadCPUNanoseconds()
            runDelay = s.pointee.runDelay?.nanoseconds() ?? 0
            // The end read again after the delay: a wait between `now` and that reading is then in
            // both the phase's wall time and its wait for a CPU, never in the second alone.
            end = MonotonicClock.nanoseconds()
        }
        if entry.pointee.hasCounters, s.pointee.counters != nil { entry.pointee.countersEnd = s.pointee.counters!.read() }
        if let emulation = s.pointee.emulation {
            if !entry.pointee.isWait, emulation.factor(for: entry.pointee.effectiveKind) > 1 {
                let spun = stretch(entry, emulation: emulation, now: end, cpuEnd: cpuEnd, runDelay: runDelay)
                if spun > end {
                    end = spun
                    cpuEnd = MonotonicClock.threadCPUNanoseconds()
                    runDelay = s.pointee.runDelay?.nanoseconds() ?? 0
                }
            }
        }
        if s.pointee.emulation != nil { entry.pointee.cpuNanoseconds = cpuEnd &- entry.pointee.cpuStart }
        if Int(entry.pointee.depth) <= s.pointee.memoryDepth {
            entry.pointee.residentAtEnd = ProcessMemory.residentBytes() ?? -1
        }
        if entry.pointee.parent >= 0 {
            let parent = s.pointee.entries + Int(entry.pointee.parent)
            parent.pointee.waitedNanoseconds &+= entry.pointee.waitedNanoseconds
            if s.pointee.emulation != nil {
                // The child whole, the recorder's work at its begin and end included: none of it is
                // the parent's self time.
                let child = ThreadTimes(wall: MonotonicClock.nanoseconds(), runDelay: s.pointee.runDelay)
                    .since(entry.pointee.outerStart)
                parent.pointee.childNanoseconds &+= child.wall
                parent.pointee.childCPUNanoseconds &+= child.cpu
                parent.pointee.childRunDelay &+= child.runDelay
            } else {
                parent.pointee.childNanoseconds &+= end &- entry.pointee.start
            }
        }
        return end
    }

    /// Waits out the emulated device's extra time at the end of the phase `entry` (its self time ×
    /// (factor − 1)), returning the reading after the wait, or `now` when there was none. The self
    /// time leaves out the children and the time the thread waited for a CPU (``ThreadRunDelay``);
    /// for cpu, decode and draw it is at most the thread's CPU time. Two things the host adds are
    /// given back instead of being stretched: that wait for a CPU, which already passed inside the
    /// phase, counts toward its extra time; and a wait that ends late (the thread was preempted at its
    /// deadline) leaves the lateness as a debt the next stretch on this thread pays first. The
    /// emulated durations then add up to the device's time, however loaded the host. With factors that
    /// hold at a clock (``DeviceEmulation/clockGigahertz``), the extra time is at the clock this run
    /// has read (``ClockTries``: its spinning waits read it), so the device keeps its speed while the
    /// host's clock moves; a wait reckoned before the run had read one is settled at the clock it read.
    @usableFromInline
    func stretch(_ entry: UnsafeMutablePointer<Entry>, emulation: DeviceEmulation, now: UInt64, cpuEnd: UInt64, runDelay: UInt64) -> UInt64 {
        let s = state
        let elapsed = now &- entry.pointee.workStart
        let selfElapsed = elapsed > entry.pointee.childNanoseconds ? elapsed - entry.pointee.childNanoseconds : 0
        let phaseRunDelay = runDelay > entry.pointee.runDelayStart ? runDelay - entry.pointee.runDelayStart : 0
        let selfRunDelay = min(selfElapsed, phaseRunDelay > entry.pointee.childRunDelay ? phaseRunDelay - entry.pointee.childRunDelay : 0)
        var selfTime = selfElapsed - selfRunDelay
        if entry.pointee.effectiveKind != .io {
            let cpu = cpuEnd &- entry.pointee.cpuStart
            selfTime = min(selfTime, cpu > entry.pointee.childCPUNanoseconds ? cpu - entry.pointee.childCPUNanoseconds : 0)
        }
        entry.pointee.stretchedSelfNanoseconds = selfTime
        let kind = entry.pointee.effectiveKind
        let clock = emulation.clockGigahertz == nil ? nil : ClockTries.processGigahertz
        let extra = emulation.extraNanoseconds(for: kind, selfNanoseconds: selfTime, atClock: clock)
        // Contended: this phase waited for a CPU, or the last wait ended late.
        let busy = selfRunDelay > Self.busyNanoseconds || s.pointee.emulationDebt > Self.busyNanoseconds
        let (wait, debt) = Self.wait(extra: extra, alreadyWaited: selfRunDelay, debt: s.pointee.emulationDebt)
        s.pointee.emulationDebt = debt
        guard wait > 0 else { return now }
        var deadline = now &+ wait
        var overpaid: UInt64 = 0
        // A quiet host: spin (the core stays awake and fast), reading the core's clock when the factors
        // hold at one. A busy one: sleep, or the spinning thread, having used its share of the CPU, is
        // preempted and waits its turn past the deadline.
        if busy {
            MonotonicClock.sleep(until: deadline)
        } else if emulation.clockGigahertz != nil {
            s.pointee.clockTries.spin(until: deadline)
            // Reckoned before the run had read its clock: settled at the clock this wait read, spun
            // longer, or what it waited too long owed back by the next stretch.
            if clock == nil, let read = ClockTries.processGigahertz {
                let settled = emulation.extraNanoseconds(for: kind, selfNanoseconds: selfTime, atClock: read)
                if settled > extra {
                    deadline &+= settled - extra
                    s.pointee.clockTries.spin(until: deadline)
                } else {
                    overpaid = extra - settled
                }
            }
        } else {
            MonotonicClock.spin(until: deadline)
        }
        let end = MonotonicClock.nanoseconds()
        s.pointee.emulationDebt = (end &- deadline) &+ overpaid
        entry.pointee.waitedNanoseconds &+= end &- now
        return end
    }

    /// A wait for a CPU (or a late end) longer than this marks the host as busy: the next emulated
    /// wait sleeps instead of spinning.
    @usableFromInline static let busyNanoseconds: UInt64 = 50_000

    /// How long to wait for `extra` nanoseconds of emulated time when the phase already waited
    /// `alreadyWaited` for a CPU and the thread owes `debt` from an earlier late wait, and the debt
    /// left afterwards (before this wait's own lateness is added).
    @usableFromInline
    static func wait(extra: UInt64, alreadyWaited: UInt64, debt: UInt64) -> (wait: UInt64, debt: UInt64) {
        let owed = alreadyWaited &+ debt
        return extra > owed ? (extra - owed, 0) : (0, owed - extra)
    }

    /// Doubles whichever buffer is full (the slow path of ``begin(_:kind:)``).
    @usableFromInline
    @inline(never)
    func grow() {
        let s = state
        if s.pointee.count == s.pointee.capacity {
            s.pointee.entries = Self.doubled(s.pointee.entries, count: s.pointee.count, capacity: &s.pointee.capacity)
        }
        if s.pointee.openCount == s.pointee.openCapacity {
            s.pointee.open = Self.doubled(s.pointee.open, count: s.pointee.openCount, capacity: &s.pointee.openCapacity)
        }
    }

    /// `buffer`'s first `count` elements moved into a new buffer of twice `capacity` (which doubles);
    /// `buffer` is freed.
    private static func doubled<Element>(_ buffer: UnsafeMutablePointer<Element>, count: Int, capacity: inout Int) -> UnsafeMutablePointer<Element> {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        capacity *= 2
        return bigger
    }

    /// Runs `body` inside a phase named `name`; the phase ends even when `body` throws.
    @inlinable
    @discardableResult
    public func phase<T>(_ name: String, kind: PhaseKind? = nil, _ body: () throws -> T) rethrows -> T {
        let token = begin(name, kind: kind)
        defer { end(token) }
        return try body()
    }

    /// Runs `body`, which waits for another thread's work (its result), inside a phase named `name`
    /// that device emulation never stretches: the other thread's phases are stretched where they run.
    @discardableResult
    public func waiting<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let token = begin(name, kind: nil)
        state.pointee.entries[Int(token.index)].isWait = true
        defer { end(token) }
        return try body()
    }

    /// Records an instant event, such as `first frame`.
    @inlinable
    public func mark(_ name: String) {
        marks.append((name, MonotonicClock.nanoseconds()))
    }

    /// Adds `amount` to the counter `name` (created at zero the first time; counters keep their first-seen order).
    public func count(_ name: String, _ amount: Int = 1) {
        if let i = counters.firstIndex(where: { $0.name == name }) {
            counters[i].value += amount
        } else {
            counters.append((name, amount))
        }
    }

    /// Forgets everything recorded, keeping the allocated capacity (for reuse between runs).
    public func reset() {
        state.pointee.callgrindBase += state.pointee.count
        state.pointee.entries.deinitialize(count: state.pointee.count)
        state.pointee.count = 0
        state.pointee.openCount = 0
        state.pointee.emulationDebt = 0
        marks.removeAll(keepingCapacity: true)
        counters.removeAll(keepingCapacity: true)
    }

    /// The number of phases still open.
    public var openPhaseCount: Int { state.pointee.openCount }

    /// The phases recorded so far, in the order they began. Open phases end at the moment of the call.
    public func phaseRecords(indexOffset: Int = 0) -> [PhaseRecord] {
        let now = MonotonicClock.nanoseconds()
        let s = state.pointee
        let openSet = Set(UnsafeBufferPointer(start: s.open, count: s.openCount))
        return UnsafeBufferPointer(start: s.entries, count: s.count).enumerated().map { i, e in
            let end = openSet.contains(Int32(i)) ? now : e.end
            let duration = end &- e.start
            return PhaseRecord(
                name: e.name, kind: e.kind,
                start: clock.seconds(atReading: e.start),
                duration: LaunchClock.seconds(duration),
                thread: thread, depth: Int(e.depth),
                parent: e.parent < 0 ? nil : Int(e.parent) + indexOffset,
                afterLaunch: e.afterLaunch,
                hostDuration: s.emulation == nil ? nil : LaunchClock.seconds(duration &- min(duration, e.waitedNanoseconds)),
                residentBytes: e.residentAtEnd >= 0 ? e.residentAtEnd : nil,
                residentGrowth: e.residentAtEnd >= 0 && e.residentAtStart >= 0 ? e.residentAtEnd - e.residentAtStart : nil,
                counters: counters(of: e, open: openSet.contains(Int32(i))))
        }
    }

    /// The system counters of phase `entry`, when it recorded them and has ended (an open phase has
    /// none: this may be called on another thread, whose counters are not the phase's).
    func counters(of entry: Entry, open: Bool) -> PhaseCounters? {
        guard entry.hasCounters, !open, let reader = state.pointee.counters else { return nil }
        return reader.counters(from: entry.countersStart, to: entry.countersEnd)
    }

    /// The marks recorded so far.
    public func markRecords() -> [MarkRecord] {
        marks.map { MarkRecord(name: $0.name, time: clock.seconds(atReading: $0.time), thread: thread) }
    }

    /// The counters recorded so far, in first-seen order.
    public func counterRecords() -> [CounterRecord] {
        counters.map { CounterRecord(name: $0.name, value: $0.value) }
    }
}

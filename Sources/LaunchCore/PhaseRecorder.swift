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
        @usableFromInline var start: UInt64
        @usableFromInline var end: UInt64
        @usableFromInline var parent: Int32
        @usableFromInline var depth: Int32
        @usableFromInline var afterLaunch: Bool

        @inlinable
        init(name: String, kind: PhaseKind?, start: UInt64, parent: Int32, depth: Int32, afterLaunch: Bool) {
            self.name = name
            self.kind = kind
            self.start = start
            self.end = 0
            self.parent = parent
            self.depth = depth
            self.afterLaunch = afterLaunch
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
    /// When set, new phases are marked as run after launch (lazy phases touched by a first use).
    public var recordingAfterLaunch = false

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var open: [Int32] = []
    @usableFromInline var marks: [(name: String, time: UInt64)] = []
    @usableFromInline var counters: [(name: String, value: Int)] = []

    /// Creates a recorder. `capacity` phases are preallocated so recording never reallocates in a typical launch.
    public init(clock: LaunchClock, thread: Int = 0, capacity: Int = 256) {
        self.clock = clock
        self.thread = thread
        entries.reserveCapacity(capacity)
        open.reserveCapacity(32)
    }

    /// Opens a phase nested inside the innermost open phase.
    @inlinable
    @discardableResult
    public func begin(_ name: String, kind: PhaseKind? = nil) -> Token {
        let now = MonotonicClock.nanoseconds()
        let index = Int32(truncatingIfNeeded: entries.count)
        entries.append(Entry(name: name, kind: kind, start: now, parent: open.last ?? -1,
                             depth: Int32(truncatingIfNeeded: open.count), afterLaunch: recordingAfterLaunch))
        open.append(index)
        return Token(index: index)
    }

    /// Closes the innermost open phase.
    @inlinable
    public func end() {
        let now = MonotonicClock.nanoseconds()
        guard let index = open.popLast() else { return }
        entries[Int(index)].end = now
    }

    /// Closes the phase `token` opened, and any phases still open inside it.
    @inlinable
    public func end(_ token: Token) {
        let now = MonotonicClock.nanoseconds()
        while let index = open.last, index >= token.index {
            open.removeLast()
            entries[Int(index)].end = now
        }
    }

    /// Runs `body` inside a phase named `name`; the phase ends even when `body` throws.
    @inlinable
    @discardableResult
    public func phase<T>(_ name: String, kind: PhaseKind? = nil, _ body: () throws -> T) rethrows -> T {
        let token = begin(name, kind: kind)
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

    /// The number of phases still open.
    public var openPhaseCount: Int { open.count }

    /// The phases recorded so far, in the order they began. Open phases end at the moment of the call.
    public func phaseRecords(indexOffset: Int = 0) -> [PhaseRecord] {
        let now = MonotonicClock.nanoseconds()
        let openSet = Set(open)
        return entries.enumerated().map { i, e in
            let end = openSet.contains(Int32(i)) ? now : e.end
            return PhaseRecord(
                name: e.name, kind: e.kind,
                start: clock.seconds(atReading: e.start),
                duration: LaunchClock.seconds(end &- e.start),
                thread: thread, depth: Int(e.depth),
                parent: e.parent < 0 ? nil : Int(e.parent) + indexOffset,
                afterLaunch: e.afterLaunch)
        }
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

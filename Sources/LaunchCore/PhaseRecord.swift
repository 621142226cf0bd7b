/// One phase of one run, as stored in a result file.
///
/// Times are seconds since the launch clock's origin (the top of `main`).
public struct PhaseRecord: Codable, Equatable, Sendable {
    /// The name the report prints: `Time for <name>: …s`.
    public var name: String
    /// The kind of cost, used by device tiers; `nil` when the program did not say.
    public var kind: PhaseKind?
    /// Seconds from the clock origin to the phase's start.
    public var start: Double
    /// Seconds the phase lasted, including its children.
    public var duration: Double
    /// A small thread number: 0 is the thread that started the clock.
    public var thread: Int
    /// Nesting depth: 0 for a top-level phase.
    public var depth: Int
    /// Index of the enclosing phase in the run's `phases`, or `nil` at top level.
    public var parent: Int?
    /// `true` for a lazy phase run after launch (`--touch`); it is not part of the launch total.
    public var afterLaunch: Bool
    /// `true` for a phase of the app's background step (entering the background, after the launch:
    /// the snapshot is saved there); `nil` otherwise. Such a phase is also `afterLaunch`.
    public var background: Bool?
    /// Under device emulation: the seconds the phase took on the host, without the emulated device's
    /// extra time (``duration`` is the emulated, wall-clock time). `nil` when not emulating.
    public var hostDuration: Double?
    /// Resident-set size in bytes at the phase's end, when sampled.
    public var residentBytes: Int?
    /// Change of the resident-set size during the phase, in bytes, when sampled.
    public var residentGrowth: Int?
    /// Instructions executed during the phase, children included (Callgrind's `Ir`, every thread of
    /// the process), when the run was made with `--metric instructions`; `nil` otherwise (never 0 for
    /// "not measured").
    public var instructions: Int?
    /// The phase's thread's system counters during it (docs/counters.md), when recorded; `nil` otherwise.
    public var counters: PhaseCounters?

    public init(
        name: String, kind: PhaseKind? = nil, start: Double, duration: Double,
        thread: Int = 0, depth: Int = 0, parent: Int? = nil, afterLaunch: Bool = false,
        hostDuration: Double? = nil, residentBytes: Int? = nil, residentGrowth: Int? = nil,
        instructions: Int? = nil, background: Bool? = nil, counters: PhaseCounters? = nil
    ) {
        self.counters = counters
        self.name = name
        self.kind = kind
        self.start = start
        self.duration = duration
        self.thread = thread
        self.depth = depth
        self.parent = parent
        self.afterLaunch = afterLaunch
        self.hostDuration = hostDuration
        self.residentBytes = residentBytes
        self.residentGrowth = residentGrowth
        self.instructions = instructions
        self.background = background
    }

    /// Seconds from the clock origin to the phase's end.
    public var end: Double { start + duration }
}

/// An instant event, such as `first frame`.
public struct MarkRecord: Codable, Equatable, Sendable {
    public var name: String
    /// Seconds since the clock origin.
    public var time: Double
    public var thread: Int

    public init(name: String, time: Double, thread: Int = 0) {
        self.name = name
        self.time = time
        self.thread = thread
    }
}

/// A named count that explains time, such as `images decoded`.
public struct CounterRecord: Codable, Equatable, Sendable {
    public var name: String
    public var value: Int

    public init(name: String, value: Int) {
        self.name = name
        self.value = value
    }
}

import LaunchCore

/// What a run's trace says: its phases and marks, in seconds since the spawn, and the program's
/// standard error without the trace's own lines.
public struct TraceReading: Equatable, Sendable {
    /// Nested phases: `depth`, `parent` (an earlier index of this array) and `thread` set; parents
    /// come before their children, each child lies within its parent, and every phase lies within the
    /// run (0 to the end of the run).
    public var phases: [PhaseRecord]
    /// Instant events (`first frame`, `interactive`), when the format has them (chrome-trace).
    public var marks: [MarkRecord]
    /// The program's standard error, with the lines of the trace removed (python-importtime prints
    /// there); otherwise unchanged.
    public var stderr: [UInt8]
    /// How the trace's times were placed in the run.
    public var anchor: TraceAnchor
}

/// How a trace's times became seconds since the spawn (docs/traces.md, "Times").
public enum TraceAnchor: String, Equatable, Sendable {
    /// The trace gives durations only (python-importtime): laid end to end from the spawn, each
    /// phase at the earliest moment it could have started.
    case laidOutFromSpawn = "laid out from the spawn"
    /// The trace's times are `CLOCK_MONOTONIC` readings, the launcher's own clock: exact.
    case monotonicClock = "the monotonic clock"
    /// The trace's times are wall-clock times (git's `time`, or a Chrome trace in µs since 1970),
    /// compared with the wall clock read at the spawn.
    case wallClock = "the wall clock"
    /// The trace's clock is its own (neither of the above): its earliest event is placed at the spawn.
    case earliestEventAtSpawn = "the earliest event at the spawn"
}

import LaunchCore

/// The limits every trace reader enforces (docs/limits.md, "Startup traces"): past one, the run's
/// trace is refused with the file, the place and the limit, never read until memory runs out.
public enum TraceLimits {
    /// The largest trace file read (256 MiB, ``InputLimit/trace``): a regular file, checked with
    /// `fstat` on the opened descriptor.
    public static let fileBytes = InputLimit.trace.bytes
    /// The most phases of one run: the protocol's limit (``ProtocolParser/maximumPhases``).
    public static let phases = ProtocolParser.maximumPhases
    /// The deepest nesting of phases on one thread: the protocol's and result files' limit
    /// (``ProtocolParser/maximumDepth``; depths 0 to 255).
    public static let depth = ProtocolParser.maximumDepth
    /// The most marks (instant events) of one run.
    public static let marks = 100_000
    /// The deepest nesting of JSON objects and arrays (``JSONNesting/maximumDepth``); a Chrome trace
    /// needs 3 plus its events' `args`, a Trace2 line 2.
    public static let jsonDepth = JSONNesting.maximumDepth
    /// The longest JSON number, in characters: longer ones are refused before they are converted.
    public static let numberCharacters = 100
    /// The largest magnitude of a time in a Chrome trace (µs), so that sums stay finite and exact
    /// to well under a microsecond: about 31,700 years.
    public static let chromeMicroseconds = 1e18
    /// The longest import time python-importtime accepts (µs): a day.
    public static let importMicroseconds = 86_400_000_000
    /// How far outside the run a trace's times may fall and still be taken as the launcher's
    /// clocks (rounding to µs, clock reading order): 1 ms.
    public static let clockToleranceSeconds = 0.001
}

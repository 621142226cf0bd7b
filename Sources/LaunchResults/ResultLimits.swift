import LaunchCore

/// The limits every result reader applies (``ResultFile`` and ``ResultTableReader`` alike, so both
/// accept and refuse the same files). Listed in `docs/limits.md`.
public enum ResultLimits {
    /// A result file is at most 1 GiB (a 10,000-phase × 100-run result is about 150 MB).
    public static let maximumFileBytes = 1 << 30
    /// JSON nesting, objects and arrays together (a valid result uses 5 levels).
    public static let maximumNesting = JSONNesting.maximumDepth
    /// One string or number (phase names, warnings), in bytes.
    public static let maximumTokenBytes = JSONInput.defaultMaximumTokenBytes
    /// Everything outside `runs` (tool, host, manifest, configuration, warnings…), in bytes.
    public static let maximumHeaderBytes = 16 << 20
    /// A phase's `depth` (nesting of phases inside a run).
    public static let maximumPhaseDepth = 256
}

import LaunchCore
import LaunchStats

/// What `diff` and `check` need of a result, read without materialising every phase record: the
/// result's description (a ``LaunchResult`` whose `runs` is empty) and its phases lined up across
/// runs (``PhaseTable``, with per-path durations and instruction counts).
public struct TabulatedResult: Sendable, Equatable {
    /// Schema version, tool, date, manifest, host, git, configuration and warnings; `runs` is empty.
    public var header: LaunchResult
    public var table: PhaseTable

    public init(header: LaunchResult, table: PhaseTable) {
        self.header = header
        self.table = table
    }

    /// Tabulates a decoded result (small results, and results made in this process).
    public init(_ result: LaunchResult) {
        var header = result
        header.runs = []
        self.init(header: header, table: PhaseTable(result))
    }
}

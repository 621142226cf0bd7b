import LaunchCore
import LaunchStats

/// What `diff` and `check` need of a result, read without materialising every phase record: the
/// result's description (a ``LaunchResult`` whose `runs` is empty) and its phases lined up across
/// runs (``PhaseTable``, with per-path durations and instruction counts).
public struct TabulatedResult: Sendable, Equatable {
    /// Schema version, tool, date, manifest, host, git, configuration and warnings; `runs` is empty.
    public var header: LaunchResult
    public var table: PhaseTable
    /// Taps lost during the launch, over all runs (`--tap`): the gate fails on any.
    public var tapsLost: Int
    /// Each run's dirty memory after its background step, where it was sampled: the gate compares
    /// the median with the tier's background budget.
    public var dirtyBytesAfterBackground: [Int]

    /// The counter ``dirtyBytesAfterBackground`` is read from.
    public static let dirtyAfterBackgroundCounter = "dirty bytes after background"

    public init(header: LaunchResult, table: PhaseTable, tapsLost: Int = 0, dirtyBytesAfterBackground: [Int] = []) {
        self.header = header
        self.table = table
        self.tapsLost = tapsLost
        self.dirtyBytesAfterBackground = dirtyBytesAfterBackground
    }

    /// Tabulates a decoded result (small results, and results made in this process).
    public init(_ result: LaunchResult) {
        var header = result
        header.runs = []
        self.init(
            header: header, table: PhaseTable(result),
            tapsLost: result.runs.compactMap(\.taps).reduce(0) { $0 + $1.lost },
            dirtyBytesAfterBackground: result.runs.compactMap { $0.counter(Self.dirtyAfterBackgroundCounter) })
    }
}

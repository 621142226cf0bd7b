import LaunchCore

/// Renders a ``LaunchResult`` in one output format. Each format is one type in its own file.
public protocol ResultExporter: Sendable {
    /// The rendered document.
    func render(_ result: LaunchResult) throws(ExportError) -> String
}

/// Options shared by the human-readable exporters.
public struct ReportOptions: Sendable, Equatable {
    /// Significant digits of times, each in the unit that fits (``DurationFormat``): `1.25 ms` with 3.
    public var precision: Int
    /// Show resident memory at each phase's end and its growth.
    public var showMemory: Bool
    /// Show each phase's system counters (`--counters`, docs/counters.md).
    public var showCounters = false
    /// List every phase of the launch; otherwise those under ``foldedShare`` of it are folded into one line.
    public var allPhases: Bool
    /// The share of the launch under which a phase is folded (1% unless a screen asks for fewer lines).
    public var foldedShare = TextReportExporter.foldedShare
    /// Functions listed under each phase of a result with function profiles (`--top`, docs/functions.md).
    public var topFunctions = FunctionReport.defaultTop

    public init(precision: Int = DurationFormat.defaultDigits, showMemory: Bool = false, allPhases: Bool = false) {
        self.precision = precision
        self.showMemory = showMemory
        self.allPhases = allPhases
    }
}

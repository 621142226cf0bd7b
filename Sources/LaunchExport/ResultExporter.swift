import LaunchCore

/// Renders a ``LaunchResult`` in one output format. Each format is one type in its own file.
public protocol ResultExporter: Sendable {
    /// The name used by `--format`.
    static var formatName: String { get }
    /// The rendered document.
    func render(_ result: LaunchResult) throws -> String
}

/// Options shared by the human-readable exporters.
public struct ReportOptions: Sendable, Equatable {
    /// Decimal places of seconds.
    public var precision: Int
    /// Show resident memory at each phase's end and its growth.
    public var showMemory: Bool

    public init(precision: Int = 2, showMemory: Bool = false) {
        self.precision = precision
        self.showMemory = showMemory
    }
}

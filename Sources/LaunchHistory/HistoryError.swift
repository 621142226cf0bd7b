/// A history store that cannot be used, naming it: a file, directory or database URL (its password
/// left out) and why. The CLI prints it and exits 2.
public struct HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store (or the result file being imported).
    public var store: String
    public var reason: String

    public init(store: String, _ reason: String) {
        self.store = store
        self.reason = reason
    }

    public var description: String { "\(store): \(reason)" }
}

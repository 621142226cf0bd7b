/// LaunchManifest's one error: a manifest (or a file read with ``ManifestLoader/Node``) that is not
/// what its schema allows, or a strategy the catalog does not know. Every message is rendered here,
/// by ``description``: `file: reason`, the reason naming the key path.
public enum ManifestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A problem in the input file `file`; `reason` names the key path and what was expected.
    case input(file: String, reason: String)
    /// `compare --strategy NAME` with a name that is not in ``StrategyCatalog``.
    case unknownStrategy(String)

    /// A problem in the input file `file` (``input(file:reason:)``).
    public static func input(_ file: String, _ reason: String) -> ManifestError {
        .input(file: file, reason: reason)
    }

    /// The file the error is about, if it names one.
    public var file: String? {
        if case .input(let file, _) = self { return file }
        return nil
    }

    /// The reason without the file in front; `nil` for an unknown strategy.
    public var reason: String? {
        if case .input(_, let reason) = self { return reason }
        return nil
    }

    public var description: String {
        switch self {
        case .input(let file, let reason):
            return "\(file): \(reason)"
        case .unknownStrategy(let name):
            return "unknown strategy '\(name)' (strategies: \(StrategyCatalog.entries.map(\.key).joined(separator: ", ")))"
        }
    }
}

import LaunchCore

/// LaunchManifest's one error: a manifest (or a file read with ``ManifestLoader/Node``) that is not
/// what its schema allows, or a strategy the catalog does not know. Every message is rendered here,
/// by ``description`` (the reason by ``ManifestProblem``): `file: key path: reason`.
public enum ManifestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `problem` in the input file `file`, at `keyPath` (`stages[2].run`; empty: the top level;
    /// `nil`: the document as a whole).
    case input(file: String, keyPath: String?, problem: ManifestProblem)
    /// `compare --strategy NAME` with a name that is not in ``StrategyCatalog``.
    case unknownStrategy(String)
    /// `compare --all` with the manifest at `manifest`, whose `strategies` lists none.
    case noStrategiesListed(manifest: String)

    /// The file the error is about, if it names one.
    public var file: String? {
        switch self {
        case .input(let file, _, _), .noStrategiesListed(let file): return file
        case .unknownStrategy: return nil
        }
    }

    /// The reason without the file in front (the key path, then what is wrong); `nil` for an
    /// unknown strategy.
    public var reason: String? {
        switch self {
        case .input(_, let keyPath, let problem): return Self.reason(problem, at: keyPath)
        case .noStrategiesListed: return #""strategies" lists none to compare (give --strategy NAME)"#
        case .unknownStrategy: return nil
        }
    }

    public var description: String {
        switch self {
        case .input(let file, _, _), .noStrategiesListed(let file):
            return "\(file): \(reason ?? "")"
        case .unknownStrategy(let name):
            return "unknown strategy '\(name)' (strategies: \(StrategyCatalog.entries.map(\.key).joined(separator: ", ")))"
        }
    }

    /// `keyPath: problem`, on one line.
    private static func reason(_ problem: ManifestProblem, at keyPath: String?) -> String {
        guard let keyPath else { return problem.description }
        // A missing key at the top level needs no place: the file says it.
        if keyPath.isEmpty, case .missingKey = problem { return problem.description }
        // Keys and values quoted from the file may hold line breaks: the message stays one line.
        return PlainText.oneLine("\(keyPath.isEmpty ? "top level" : keyPath): \(problem)")
    }
}

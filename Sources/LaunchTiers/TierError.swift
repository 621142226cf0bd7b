#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// LaunchTiers' one error: a tiers file or tier name that cannot be used, or a reference workload
/// that could not run. Every message is rendered here, by ``description``.
///
/// ``invalidFile(_:)`` carries the message text built where it is thrown (the tiers-file reader,
/// which names the file, the entry and the key in many different ways).
public enum TierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A tiers file that cannot be used: the whole message, built at the throw site.
    case invalidFile(String)
    /// No tier is named `name`; `known` are the tiers there are.
    case unknownTier(name: String, known: [String])
    /// A reference workload (``HostReference``) that could not run (no memory, libpng refused, the
    /// temporary file failed): `workload` is `setup`, `io` or `decode`, `code` CTierReference's
    /// error code (`LP_REF_*`), `errno` the `errno` after an io failure, else 0.
    case reference(workload: String, code: Int32, errno: Int32)

    /// A tiers file that cannot be used, with the message `message` (``invalidFile(_:)``).
    public init(_ message: String) {
        self = .invalidFile(message)
    }

    public var description: String {
        switch self {
        case .invalidFile(let message):
            return message
        case .unknownTier(let name, let known):
            return "unknown tier '\(name)'\(NearestName.hint(for: name, among: known)) (tiers: \(known.joined(separator: ", ")); see `launchprof tiers`)"
        case .reference(let workload, let code, let errno):
            let reason = errno != 0 ? ": " + String(cString: strerror(errno)) : ""
            return "the \(workload) reference workload failed (code \(code))\(reason)"
        }
    }
}

/// LaunchImage's one error: a PNG that could not be decoded or encoded, with the file and libpng's
/// reason (or the limit that was hit). One renderer, ``description``: `file: invalid PNG: reason`.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes from `file` (or `<memory>`) are not a PNG this decoder accepts.
    case undecodable(file: String, reason: String)
    /// The image could not be encoded for `file`.
    case unencodable(file: String, reason: String)

    /// The file the bytes came from or were for (or `<memory>`).
    public var file: String {
        switch self {
        case .undecodable(let file, _), .unencodable(let file, _): file
        }
    }

    /// libpng's message, or the limit that was hit.
    public var reason: String {
        switch self {
        case .undecodable(_, let reason), .unencodable(_, let reason): reason
        }
    }

    public var description: String { "\(file): invalid PNG: \(reason)" }
}

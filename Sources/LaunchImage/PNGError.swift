/// A PNG that could not be decoded or encoded, with the file and libpng's reason.
public struct PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file the bytes came from (or `<memory>`).
    public var file: String
    /// libpng's message, or the limit that was hit.
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): invalid PNG: \(reason)" }
}

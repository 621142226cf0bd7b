import FoundationEssentials

/// The project's JSON documents as Foundation's encoder writes them: pretty-printed, keys sorted,
/// slashes unescaped (stable and diffable). Used by the result codec and by every JSON export.
public enum PrettyJSON {
    /// The JSON bytes of `value`; a value JSON cannot hold (a number that is not finite) is refused
    /// with where it is (``Unencodable``, which ``ResultError`` and LaunchExport's error carry).
    public static func encode<Value: Encodable>(_ value: Value) throws(Unencodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch let error as EncodingError {
            throw Unencodable(error)
        } catch {
            throw Unencodable(keyPath: "", problem: "\(error)")
        }
    }

    /// ``encode(_:)``'s document as text, ending with a newline.
    public static func text<Value: Encodable>(_ value: Value) throws(Unencodable) -> String {
        String(decoding: try encode(value), as: UTF8.self) + "\n"
    }

    /// A value JSON cannot hold, as facts: its key path (`runs[0].total`; empty: the document) and
    /// Foundation's reason. Not thrown to the edge: a module's error carries it.
    public struct Unencodable: Error, Equatable, Sendable, CustomStringConvertible {
        public var keyPath: String
        public var problem: String

        public init(keyPath: String, problem: String) {
            self.keyPath = keyPath
            self.problem = problem
        }

        init(_ error: EncodingError) {
            switch error {
            case .invalidValue(_, let context):
                self.init(keyPath: PrettyJSON.keyPath(context.codingPath), problem: context.debugDescription)
            @unknown default:
                self.init(keyPath: "", problem: "\(error)")
            }
        }

        /// `cannot be written as JSON: KEY PATH: PROBLEM`.
        public var description: String {
            "cannot be written as JSON: \(keyPath.isEmpty ? "top level" : keyPath): \(problem)"
        }
    }

    /// A coding path as the project's key paths are written: `runs[3].phases[1].duration`.
    static func keyPath(_ codingPath: [any CodingKey]) -> String {
        let joined = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return String(joined.drop(while: { $0 == "." }))
    }
}

/// The nesting depth of a JSON document, checked before it is decoded, so that the file's own
/// message can name the limit (`nested more than 64 levels deep (a manifest needs 3)`).
///
/// The walk takes strings from ``JSONScanner``, the tokenizer every JSON reader shares, so brackets
/// inside strings are not counted; whether the document is otherwise valid is the decoder's job (a
/// string the tokenizer refuses ends the walk, and the decoder then says why).
public enum JSONNesting {
    /// The deepest nesting accepted in a manifest, tiers or budgets file (they need 3 to 4).
    public static let maximumDepth = 64

    /// Where the document first nests deeper than `limit`: 1-based line and column of the bracket.
    public struct TooDeep: Equatable, Sendable {
        public var line: Int
        public var column: Int
        public var limit: Int
    }

    /// `nil` when no object or array of `bytes` is nested more than `limit` deep.
    public static func check(_ bytes: [UInt8], limit: Int = maximumDepth) -> TooDeep? {
        bytes.withUnsafeBufferPointer { buffer in
            let input = JSONInput(path: "", bytes: buffer, maximumTokenBytes: buffer.count)
            let scanner = JSONScanner(input: input, lenientText: true)
            var depth = 0
            while let c = try? scanner.peek() {
                switch c {
                case UInt8(ascii: "\""):
                    guard (try? scanner.string()) != nil else { return nil }
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > limit { return TooDeep(line: input.line, column: input.column, limit: limit) }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
                default: break
                }
                input.pos += 1
            }
            return nil
        }
    }

    /// `bytes` parsed by ``JSONParser`` once their nesting is checked: the first step of every small
    /// input file's reader (manifest, settings, tiers, budgets), each naming the file in its own error,
    /// `tooDeep`'s or `invalid`'s.
    public static func parse<Failure: Error>(
        _ bytes: [UInt8], tooDeep: (TooDeep) -> Failure, invalid: (CoreError) -> Failure
    ) throws(Failure) -> JSONValue {
        if let deep = check(bytes) { throw tooDeep(deep) }
        do { return try JSONParser.parse(bytes) } catch { throw invalid(error) }
    }
}

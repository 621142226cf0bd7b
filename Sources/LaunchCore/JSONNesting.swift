/// The nesting depth of a JSON document, checked before it is decoded: the decoders recurse once
/// per level, so a document nested a hundred thousand levels deep would overflow the stack.
///
/// The scan follows JSON's own grammar for strings (quotes and backslash escapes), so brackets
/// inside strings are not counted; whether the document is otherwise valid is the decoder's job.
public enum JSONNesting {
    /// The deepest nesting accepted in a manifest, tiers or budgets file (they need 3 to 4 levels).
    public static let maximumDepth = 64

    /// Where the document first nests deeper than `limit`: 1-based line and column of the bracket.
    public struct TooDeep: Equatable, Sendable {
        public var line: Int
        public var column: Int
        public var limit: Int
    }

    /// `nil` when no object or array of `bytes` is nested more than `limit` deep.
    public static func check(_ bytes: [UInt8], limit: Int = maximumDepth) -> TooDeep? {
        var depth = 0, line = 1, lineStart = 0
        var inString = false, escaped = false
        for (i, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                if byte == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return TooDeep(line: line, column: i - lineStart + 1, limit: limit) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            case UInt8(ascii: "\n"): line += 1; lineStart = i + 1
            default: break
            }
        }
        return nil
    }
}

/// Reads JSON text (RFC 8259) into a ``JSONValue``, without Foundation: the built-in app reads its
/// manifest and settings with it, and an app that linked Foundation would load it at every launch.
///
/// Its tokens come from ``JSONScanner``, the tokenizer every JSON reader shares, so it is as strict:
/// one value, optionally after a UTF-8 byte order mark, with nothing but whitespace after it; no
/// trailing commas, comments, `NaN` or leading zeros; strings must be valid UTF-8 with every control
/// character escaped and every `\u` surrogate paired; numbers must be finite as a `Double` (digits
/// too small for one read as 0). A repeated key keeps its first place and its last value (as
/// Foundation's reader did, which the manifest, settings, tiers and budgets were once read with).
/// Nesting is limited (``JSONNesting/maximumDepth`` by default), so the builder's recursion is
/// bounded. Every failure says where: line and column (in characters).
public enum JSONParser {
    /// The JSON value `bytes` hold; objects and arrays nested deeper than `maximumDepth` (keep it
    /// in the hundreds at most: each level is a recursive call) are refused.
    ///
    /// - Throws: ``CoreError/invalidJSON(offset:line:column:reason:)`` saying why and where.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = JSONNesting.maximumDepth) throws(CoreError) -> JSONValue {
        let textStart = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        do {
            return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONStop) -> JSONValue in
                var builder = JSONTreeBuilder(buffer, textStart: textStart, maximumDepth: maximumDepth)
                return try builder.document()
            }
        } catch {
            var line = 1, column = 1
            for byte in bytes[min(textStart, bytes.count)..<min(error.offset, bytes.count)] {
                if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
            }
            throw .invalidJSON(offset: error.offset, line: line, column: column, reason: error.reason)
        }
    }
}

/// Where the builder stopped, and why (`unexpected 'x'`, `nested more than 64 levels deep`…): the builder's control flow,
/// which ``JSONParser/parse(_:maximumDepth:)`` turns into a ``CoreError`` with a line and column.
private struct JSONStop: Error {
    var offset: Int
    var reason: String
}

/// The recursive-descent tree builder behind ``JSONParser``, over ``JSONScanner``'s tokens: one
/// pass over the bytes; the tokenizer's failures worded as ``JSONParser`` words them.
private struct JSONTreeBuilder {
    let bytes: UnsafeBufferPointer<UInt8>
    let scanner: JSONScanner
    let maximumDepth: Int
    var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, textStart: Int, maximumDepth: Int) {
        self.bytes = bytes
        // No token limit but the input's own length: the callers bound what they read.
        let input = JSONInput(path: "", bytes: bytes, maximumTokenBytes: bytes.count)
        input.pos = textStart
        scanner = JSONScanner(input: input, underflowToZero: true)
        self.maximumDepth = maximumDepth
    }

    static let endOfInput = "unexpected end of input"

    /// The next byte after white space (in memory, peeking cannot fail).
    func peek() -> UInt8? { (try? scanner.peek()) ?? nil }

    var position: Int { scanner.input.pos }

    mutating func document() throws(JSONStop) -> JSONValue {
        let result = try value()
        if peek() != nil { throw JSONStop(offset: position, reason: "text after the end of the JSON value") }
        return result
    }

    /// The stop for whatever is at `offset`: the end of the input, or a character that cannot come there.
    func unexpected(at offset: Int? = nil) -> JSONStop {
        let offset = offset ?? position
        guard offset < bytes.count else { return JSONStop(offset: bytes.count, reason: Self.endOfInput) }
        return JSONStop(offset: offset, reason: bytes[offset] == 0 ? "a NUL byte" : "unexpected \(JSONScanner.shown(bytes[offset]))")
    }

    mutating func value() throws(JSONStop) -> JSONValue {
        guard let c = peek() else { throw unexpected() }
        switch c {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try scan { (s) throws(JSONFailure) in s.text(try s.string()) })
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let first = try scan { (s) throws(JSONFailure) in try s.literal() }
            return first == UInt8(ascii: "n") ? .null : .bool(first == UInt8(ascii: "t"))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw unexpected()
        }
    }

    /// Consumes an opening bracket, refused past the depth limit; `false` when the container is
    /// empty (its `close` consumed too).
    mutating func enter(closedBy close: UInt8) throws(JSONStop) -> Bool {
        depth += 1
        if depth > maximumDepth { throw JSONStop(offset: position, reason: "nested more than \(maximumDepth) levels deep") }
        scanner.input.pos += 1
        guard peek() == close else { return true }
        leave()
        return false
    }

    /// Consumes a closing bracket.
    mutating func leave() {
        scanner.input.pos += 1
        depth -= 1
    }

    /// After a member or element: `true` for a comma, `false` for `close` (consumed either way).
    mutating func commaOr(_ close: UInt8) throws(JSONStop) -> Bool {
        switch peek() {
        case UInt8(ascii: ","):
            scanner.input.pos += 1
            return true
        case close:
            leave()
            return false
        default: throw unexpected()
        }
    }

    mutating func object() throws(JSONStop) -> JSONValue {
        var object = JSONValue.Object()
        guard try enter(closedBy: UInt8(ascii: "}")) else { return .object(object) }
        repeat {
            guard peek() == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try scan { (s) throws(JSONFailure) in s.text(try s.string()) }
            guard peek() == UInt8(ascii: ":") else { throw unexpected() }
            scanner.input.pos += 1
            object[key] = try value()
        } while try commaOr(UInt8(ascii: "}"))
        return .object(object)
    }

    mutating func array() throws(JSONStop) -> JSONValue {
        var items: [JSONValue] = []
        guard try enter(closedBy: UInt8(ascii: "]")) else { return .array(items) }
        repeat {
            items.append(try value())
        } while try commaOr(UInt8(ascii: "]"))
        return .array(items)
    }

    /// The number at the current position: JSON's grammar, then its value, which must be finite.
    mutating func number() throws(JSONStop) -> JSONValue.Number {
        let token = try scan { (s) throws(JSONFailure) in try s.number() }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<(token.start + token.count)]), as: UTF8.self)
        guard let value = try? scanner.double(token) else {
            let shown = text.count > 40 ? "\(text.prefix(40))…" : text
            throw JSONStop(offset: token.start, reason: "the number \(shown) is too large")
        }
        return JSONValue.Number(text: text, value: value)
    }

    /// Runs `body` on the tokenizer; its failure worded as ``JSONParser`` words it.
    func scan<R>(_ body: (JSONScanner) throws(JSONFailure) -> R) throws(JSONStop) -> R {
        do {
            return try body(scanner)
        } catch {
            throw stop(for: error)
        }
    }

    func stop(for failure: JSONFailure) -> JSONStop {
        let at = failure.offset
        switch failure.rule {
        case .controlCharacter(0):
            return JSONStop(offset: at, reason: "a NUL byte in a string")
        case .controlCharacter(let c):
            let hex = String(c, radix: 16, uppercase: true)
            return JSONStop(offset: at, reason: "control character U+\(hex.count < 2 ? "000" : "00")\(hex) in a string (write it as an escape)")
        case .unknownEscape(let c):
            let shown = (0x21..<0x7F).contains(c) ? "\\\(Character(Unicode.Scalar(c)))" : "a backslash"
            return JSONStop(offset: at, reason: "\(shown) is not a JSON escape")
        case .unicodeEscapeDigits:
            // The first byte that is not a hexadecimal digit, or the end of the input.
            var k = at
            while k < bytes.count, bytes[k] < 0x80, Character(Unicode.Scalar(bytes[k])).isHexDigit { k += 1 }
            guard k < bytes.count else { return unexpected(at: k) }
            return JSONStop(offset: k, reason: "expected four hexadecimal digits after \\u")
        case .loneSurrogate(let value):
            return JSONStop(offset: at, reason: "\\u\(String(value, radix: 16, uppercase: true)) is half of a surrogate pair, without the other half")
        case .invalidUTF8:
            return JSONStop(offset: at, reason: "invalid UTF-8")
        case .unterminatedString:
            return unexpected(at: bytes.count)
        case .numberNeedsDigits(_, let offset):
            return unexpected(at: offset)
        case .numberEndsEarly(_, leadingZero: true):
            return JSONStop(offset: at, reason: "a number may not start with 0")
        case .numberEndsEarly(let grammarEnd, leadingZero: false):
            return depth == 0 ? JSONStop(offset: grammarEnd, reason: "text after the end of the JSON value") : unexpected(at: grammarEnd)
        case .unknownLiteral(let mismatch):
            return unexpected(at: mismatch)
        case .tokenTooLong, .numberTooLarge, .numberTooSmall, nil:
            return JSONStop(offset: at, reason: failure.message)
        }
    }
}

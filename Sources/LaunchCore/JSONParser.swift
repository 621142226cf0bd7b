/// Reads JSON text (RFC 8259) into a ``JSONValue``, without Foundation: the built-in app reads its
/// manifest and settings with it, and an app that linked Foundation would load it at every launch.
///
/// Strict: one value, optionally after a UTF-8 byte order mark, with nothing but whitespace after
/// it; no trailing commas, comments, `NaN` or leading zeros; strings must be valid UTF-8 with every
/// control character escaped and every `\u` surrogate paired; numbers must be finite as a `Double`;
/// a repeated key keeps its first place and its last value (as Foundation's reader did, which the
/// manifest, settings, tiers and budgets were once read with). Nesting is limited (``JSONNesting/maximumDepth`` by default), so
/// the parser's recursion is bounded. Every failure says where: line and column (in characters).
public enum JSONParser {
    /// The JSON value `bytes` hold; objects and arrays nested deeper than `maximumDepth` (keep it
    /// in the hundreds at most: each level is a recursive call) are refused.
    ///
    /// - Throws: ``CoreError/invalidJSON(offset:line:column:reason:)`` saying why and where.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = JSONNesting.maximumDepth) throws(CoreError) -> JSONValue {
        var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
        do {
            return try reader.document()
        } catch {
            var line = 1, column = 1
            for byte in bytes[min(reader.textStart, bytes.count)..<min(error.offset, bytes.count)] {
                if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
            }
            throw .invalidJSON(offset: error.offset, line: line, column: column, reason: error.reason)
        }
    }
}

/// Where the reader stopped, and why (`nil`: an unexpected character): the reader's control flow,
/// which ``JSONParser/parse(_:maximumDepth:)`` turns into a ``CoreError`` with a line and column.
private struct JSONStop: Error {
    var offset: Int
    var reason: String?
}

/// The recursive-descent reader behind ``JSONParser``: one pass over the bytes.
private struct JSONReader {
    let bytes: [UInt8]
    let maximumDepth: Int
    var i = 0
    var depth = 0
    /// Where the text starts (after a byte order mark): columns count from here on the first line.
    var textStart = 0
    /// A string's bytes with its escapes resolved (reused from string to string).
    var scratch: [UInt8] = []

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    static let endOfInput = "unexpected end of input"

    mutating func document() throws(JSONStop) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3; textStart = 3 }
        skipSpace()
        let result = try value()
        skipSpace()
        if i < bytes.count { throw JSONStop(offset: i, reason: "text after the end of the JSON value") }
        return result
    }

    /// The stop for whatever is at `i`: the end of the input, or a character that cannot come there.
    func unexpected() -> JSONStop {
        guard i < bytes.count else { return JSONStop(offset: i, reason: Self.endOfInput) }
        return JSONStop(offset: i, reason: bytes[i] == 0 ? "a NUL byte" : nil)
    }

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func value() throws(JSONStop) -> JSONValue {
        guard i < bytes.count else { throw unexpected() }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw unexpected()
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONStop) {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in text {
            guard i < bytes.count, bytes[i] == expected else { throw unexpected() }
            i += 1
        }
    }

    mutating func enter() throws(JSONStop) {
        depth += 1
        if depth > maximumDepth { throw JSONStop(offset: i, reason: "nested more than \(maximumDepth) levels deep") }
        i += 1
        skipSpace()
    }

    mutating func object() throws(JSONStop) -> JSONValue {
        try enter()
        var object = JSONValue.Object()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return .object(object)
        }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw unexpected() }
            i += 1
            skipSpace()
            object[key] = try value()
            skipSpace()
            guard i < bytes.count else { throw unexpected() }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
            } else if bytes[i] == UInt8(ascii: "}") {
                i += 1
                depth -= 1
                return .object(object)
            } else {
                throw unexpected()
            }
        }
    }

    mutating func array() throws(JSONStop) -> JSONValue {
        try enter()
        var items: [JSONValue] = []
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw unexpected() }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
            } else if bytes[i] == UInt8(ascii: "]") {
                i += 1
                depth -= 1
                return .array(items)
            } else {
                throw unexpected()
            }
        }
    }

    // MARK: Strings

    /// The string whose opening quote is at `i`.
    mutating func string() throws(JSONStop) -> String {
        i += 1
        let start = i
        // Most strings have no escape: they are the input's own bytes, once checked.
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: bytes[start..<(i - 1)], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacter(byte) }
            if byte < 0x80 { i += 1 } else { try utf8Sequence() }
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[start..<i])
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape()
            case 0..<0x20:
                throw controlCharacter(byte)
            case 0x20..<0x80:
                scratch.append(byte)
                i += 1
            default:
                let sequenceStart = i
                try utf8Sequence()
                scratch.append(contentsOf: bytes[sequenceStart..<i])
            }
        }
        throw unexpected()
    }

    func controlCharacter(_ byte: UInt8) -> JSONStop {
        if byte == 0 { return JSONStop(offset: i, reason: "a NUL byte in a string") }
        let hex = String(byte, radix: 16, uppercase: true)
        return JSONStop(offset: i, reason: "control character U+\(hex.count < 2 ? "000" : "00")\(hex) in a string (write it as an escape)")
    }

    /// Checks the UTF-8 sequence at `i` (no overlong forms, surrogates or values past U+10FFFF) and steps over it.
    mutating func utf8Sequence() throws(JSONStop) {
        let lead = bytes[i]
        var length = 0, lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw JSONStop(offset: i, reason: "invalid UTF-8")
        }
        for k in 1..<length {
            guard i + k < bytes.count else { throw JSONStop(offset: bytes.count, reason: Self.endOfInput) }
            let byte = bytes[i + k]
            guard byte >= (k == 1 ? lower : 0x80), byte <= (k == 1 ? upper : 0xBF) else {
                throw JSONStop(offset: i, reason: "invalid UTF-8")
            }
        }
        i += length
    }

    /// Resolves the escape at `i` (its backslash) into ``scratch``.
    mutating func escape() throws(JSONStop) {
        guard i + 1 < bytes.count else { throw JSONStop(offset: bytes.count, reason: Self.endOfInput) }
        let letter = bytes[i + 1]
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            try unicodeEscape()
            return
        default:
            let shown = (0x21..<0x7F).contains(letter) ? "\\\(Character(Unicode.Scalar(letter)))" : "a backslash"
            throw JSONStop(offset: i, reason: "\(shown) is not a JSON escape")
        }
        i += 2
    }

    /// `\uXXXX` at `i`, or a surrogate pair `\uD83D\uDE00`; a lone surrogate is refused.
    mutating func unicodeEscape() throws(JSONStop) {
        let start = i
        var scalar = try hexDigits(at: i + 2)
        i += 6
        if (0xDC00...0xDFFF).contains(scalar) { throw loneSurrogate(scalar, at: start) }
        if (0xD800...0xDBFF).contains(scalar) {
            guard i < bytes.count else { throw unexpected() }
            guard bytes[i] == UInt8(ascii: "\\") else { throw loneSurrogate(scalar, at: start) }
            guard i + 1 < bytes.count else { throw JSONStop(offset: bytes.count, reason: Self.endOfInput) }
            guard bytes[i + 1] == UInt8(ascii: "u") else { throw loneSurrogate(scalar, at: start) }
            let low = try hexDigits(at: i + 2)
            guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(scalar, at: start) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            i += 6
        }
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    func loneSurrogate(_ value: UInt32, at offset: Int) -> JSONStop {
        JSONStop(offset: offset, reason: "\\u\(String(value, radix: 16, uppercase: true)) is half of a surrogate pair, without the other half")
    }

    /// The four hexadecimal digits at `offset`.
    func hexDigits(at offset: Int) throws(JSONStop) -> UInt32 {
        var value: UInt32 = 0
        for k in offset..<(offset + 4) {
            guard k < bytes.count else { throw JSONStop(offset: bytes.count, reason: Self.endOfInput) }
            let byte = bytes[k]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONStop(offset: k, reason: "expected four hexadecimal digits after \\u")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: Numbers

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func digits() throws(JSONStop) {
        guard i < bytes.count, Self.isDigit(bytes[i]) else { throw unexpected() }
        while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
    }

    /// The number at `i`: JSON's grammar, then its value, which must be finite.
    mutating func number() throws(JSONStop) -> JSONValue.Number {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, Self.isDigit(bytes[i]) { throw JSONStop(offset: start, reason: "a number may not start with 0") }
        } else {
            try digits()
        }
        var whole = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            whole = false
            i += 1
            try digits()
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            whole = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            try digits()
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        // Up to 15 digits, a whole number is exact as an Int and as a Double.
        if whole, i - start - (negative ? 1 : 0) <= 15 {
            var magnitude = 0
            for byte in bytes[(negative ? start + 1 : start)..<i] { magnitude = magnitude * 10 + Int(byte - UInt8(ascii: "0")) }
            return JSONValue.Number(text: text, value: negative ? -Double(magnitude) : Double(magnitude))
        }
        guard let value = Double(text), value.isFinite else {
            let shown = text.count > 40 ? "\(text.prefix(40))…" : text
            throw JSONStop(offset: start, reason: "the number \(shown) is too large")
        }
        return JSONValue.Number(text: text, value: value)
    }
}

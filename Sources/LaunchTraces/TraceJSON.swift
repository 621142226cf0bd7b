/// A strict, bounded JSON reader (RFC 8259) over bytes in memory, for the trace readers: it hands
/// out one token at a time, so a reader keeps only the fields it needs and skips the rest without
/// building values. No recursion: containers are tracked on a stack of at most ``maximumDepth``.
///
/// Strict: no comments, trailing commas, `NaN`, leading zeros or raw control characters in strings;
/// numbers of at most ``TraceLimits/numberCharacters`` characters that fit a finite `Double`. Invalid
/// UTF-8 and lone surrogates in strings become U+FFFD (names are only shown, never trusted).
struct TraceJSON {
    /// Where the input is wrong: a byte offset into the bytes given to ``init(_:from:to:maximumDepth:)``.
    struct Failure: Error, Equatable {
        var offset: Int
        var reason: String
    }

    private let bytes: [UInt8]
    /// The next byte to read.
    private(set) var offset: Int
    private let end: Int
    private let maximumDepth: Int
    /// How many containers are open.
    private(set) var depth = 0
    /// Bit `i` set when the container at depth `i` (from 0) is an object, clear for an array: no
    /// allocation per value (``maximumDepth`` is at most 64).
    private var objects: UInt64 = 0
    /// The last structural token: `{`, `[`, `,`, `:`, or `v` after a complete value.
    private var last: UInt8 = UInt8(ascii: ",")

    /// Reads `bytes[start..<end]` (all of `bytes` by default), nesting at most `maximumDepth` (at most 64) deep.
    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil, maximumDepth: Int = TraceLimits.jsonDepth) {
        self.bytes = bytes
        self.offset = start
        self.end = min(end ?? bytes.count, bytes.count)
        self.maximumDepth = min(max(maximumDepth, 1), UInt64.bitWidth)
    }

    // MARK: Bytes

    /// The next byte after white space, not consumed; `nil` at the end.
    mutating func peek() -> UInt8? {
        while offset < end {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return bytes[offset]
            }
        }
        return nil
    }

    /// Fails unless only white space is left.
    mutating func expectEnd() throws(Failure) {
        if let c = peek() { throw unexpected(c, "the end of the value") }
    }

    func failure(_ reason: String, at position: Int? = nil) -> Failure {
        Failure(offset: position ?? offset, reason: reason)
    }

    private func unexpected(_ c: UInt8?, _ expected: String) -> Failure {
        guard let c else { return failure("unexpected end of input, expected \(expected)") }
        let shown = c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16, uppercase: true))"
        return failure("unexpected \(shown), expected \(expected)")
    }

    // MARK: Containers

    /// What the next value is, without consuming it.
    enum Kind { case object, array, string, number, literal }

    mutating func nextKind() throws(Failure) -> Kind {
        guard let c = peek() else { throw unexpected(nil, "a value") }
        switch c {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return .literal
        default: throw unexpected(c, "a value")
        }
    }

    /// Consumes `{`.
    mutating func openObject() throws(Failure) {
        try open(UInt8(ascii: "{"), isObject: true, "an object")
    }

    /// Consumes `[`.
    mutating func openArray() throws(Failure) {
        try open(UInt8(ascii: "["), isObject: false, "an array")
    }

    private mutating func open(_ bracket: UInt8, isObject: Bool, _ what: String) throws(Failure) {
        let c = peek()
        guard c == bracket else { throw unexpected(c, what) }
        guard depth < maximumDepth else {
            throw failure("objects and arrays nested more than \(maximumDepth) deep (the limit)")
        }
        offset += 1
        if isObject { objects |= 1 << UInt64(depth) } else { objects &= ~(1 << UInt64(depth)) }
        depth += 1
        last = bracket
    }

    /// The next member's key of the innermost open object (its `:` consumed), or `nil` when the
    /// object ends (its `}` consumed).
    mutating func nextKey() throws(Failure) -> String? {
        try nextMember(decodingKey: true)
    }

    private mutating func nextMember(decodingKey: Bool) throws(Failure) -> String? {
        let c = peek()
        if c == UInt8(ascii: "}") {
            guard last != UInt8(ascii: ",") else { throw failure("a trailing comma before '}'") }
            close()
            return nil
        }
        if c == UInt8(ascii: ",") {
            guard last == UInt8(ascii: "v") else { throw unexpected(c, "a key") }
            offset += 1
            last = UInt8(ascii: ",")
            if peek() == UInt8(ascii: "}") { throw failure("a trailing comma before '}'") }
        } else if last != UInt8(ascii: "{") {
            throw unexpected(c, "',' or '}'")
        }
        guard peek() == UInt8(ascii: "\"") else { throw unexpected(peek(), "a key in double quotes") }
        let key = try scanString(decode: decodingKey).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard peek() == UInt8(ascii: ":") else { throw unexpected(peek(), "':' after a key") }
        offset += 1
        last = UInt8(ascii: ":")
        return key
    }

    /// `true` when the innermost open array has another element (a `,` before it consumed);
    /// `false` when it ends (its `]` consumed). With `endOfInputCloses`, the end of the input also
    /// ends it: the Trace Event Format lets a program that stops early leave out the final `]`.
    mutating func nextElement(endOfInputCloses: Bool = false) throws(Failure) -> Bool {
        let c = peek()
        if c == nil, endOfInputCloses {
            close()
            return false
        }
        if c == UInt8(ascii: "]") {
            guard last != UInt8(ascii: ",") else { throw failure("a trailing comma before ']'") }
            close()
            return false
        }
        if c == UInt8(ascii: ",") {
            guard last == UInt8(ascii: "v") else { throw unexpected(c, "a value") }
            offset += 1
            last = UInt8(ascii: ",")
            if endOfInputCloses, peek() == nil {
                close()
                return false
            }
            if peek() == UInt8(ascii: "]") { throw failure("a trailing comma before ']'") }
            return true
        }
        guard last == UInt8(ascii: "[") else { throw unexpected(c, "',' or ']'") }
        return true
    }

    private mutating func close() {
        if offset < end { offset += 1 }
        if depth > 0 { depth -= 1 }
        last = UInt8(ascii: "v")
    }

    // MARK: Values

    /// Reads a string value.
    mutating func readString() throws(Failure) -> String {
        String(decoding: try readStringBytes(), as: UTF8.self)
    }

    /// Reads a string value as UTF-8 bytes: a slice of the input when it has no escapes (no copy).
    mutating func readStringBytes() throws(Failure) -> ArraySlice<UInt8> {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected(peek(), "a string") }
        let text = try scanString(decode: true) ?? []
        last = UInt8(ascii: "v")
        return text
    }

    /// Reads a number value: finite, at most ``TraceLimits/numberCharacters`` characters.
    mutating func readNumber() throws(Failure) -> Double {
        let start = offset
        let text = try scanNumber()
        guard let value = Double(text), value.isFinite else {
            throw failure("the number \(text) is out of range", at: start)
        }
        last = UInt8(ascii: "v")
        return value
    }

    /// Reads a number that must be a whole number from `range`; `what` names it in the message.
    mutating func readInteger(_ what: String, in range: ClosedRange<Int>) throws(Failure) -> Int {
        let start = offset
        guard try nextKind() == .number else { throw failure("\(what) must be a number", at: start) }
        let value = try readNumber()
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw failure("\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(value)", at: start)
        }
        return Int(value)
    }

    /// Skips one value of any kind, however nested (up to the depth limit), checking its syntax.
    mutating func skipValue() throws(Failure) {
        let base = depth
        try beginSkipping()
        while depth > base {
            if objects & (1 << UInt64(depth - 1)) != 0 {
                if try nextMember(decodingKey: false) != nil { try beginSkipping() }
            } else if try nextElement() {
                try beginSkipping()
            }
        }
    }

    /// Skips a scalar, or opens a container for ``skipValue()`` to walk.
    private mutating func beginSkipping() throws(Failure) {
        switch try nextKind() {
        case .object: try openObject()
        case .array: try openArray()
        case .string:
            _ = try scanString(decode: false)
            last = UInt8(ascii: "v")
        case .number:
            // Without an exponent, 100 characters cannot overflow a Double: only numbers with one are converted.
            let start = offset
            let text = try scanNumber()
            if text.contains(where: { $0 == "e" || $0 == "E" }), !(Double(text)?.isFinite ?? false) {
                throw failure("the number \(text) is out of range", at: start)
            }
            last = UInt8(ascii: "v")
        case .literal:
            for word in ["true", "false", "null"] where matches(word) {
                offset += word.utf8.count
                last = UInt8(ascii: "v")
                return
            }
            throw unexpected(bytes[offset], "a value")
        }
    }

    private func matches(_ word: String) -> Bool {
        let utf8 = word.utf8
        guard end - offset >= utf8.count else { return false }
        var i = offset
        for c in utf8 {
            guard bytes[i] == c else { return false }
            i += 1
        }
        return true
    }

    // MARK: Scanning

    /// Scans a string starting at its opening quote; returns its UTF-8 bytes when `decode` is set:
    /// a slice of the input when the string has no escapes.
    private mutating func scanString(decode: Bool) throws(Failure) -> ArraySlice<UInt8>? {
        let start = offset
        offset += 1
        // Most strings have no escape: up to the closing quote in one search.
        if let quote = ByteSearch.first(UInt8(ascii: "\""), in: bytes, from: offset, to: end),
            ByteSearch.first(UInt8(ascii: "\\"), in: bytes, from: offset, to: quote) == nil,
            !ByteSearch.containsControlCharacter(bytes, from: offset, to: quote)
        {
            defer { offset = quote + 1 }
            return decode ? bytes[offset..<quote] : nil
        }
        var run = offset
        var decoded: [UInt8] = []
        var escaped = false
        while true {
            guard offset < end else { throw failure("a string that never ends", at: start) }
            let c = bytes[offset]
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { throw failure("a control character (0x\(String(c, radix: 16, uppercase: true))) inside a string; it must be escaped") }
            if c != UInt8(ascii: "\\") {
                offset += 1
                continue
            }
            if decode { decoded += bytes[run..<offset] }
            escaped = true
            offset += 1
            guard offset < end else { throw failure("a string that never ends", at: start) }
            let e = bytes[offset]
            offset += 1
            let simple: UInt8?
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = e
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar), end - offset >= 6, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                {
                    let save = offset
                    offset += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        offset = save
                    }
                }
                if decode { decoded += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8) }
                simple = nil
            default:
                throw failure("an unknown escape '\\\(Character(Unicode.Scalar(e)))' in a string", at: offset - 2)
            }
            if decode, let simple { decoded.append(simple) }
            run = offset
        }
        let text: ArraySlice<UInt8>?
        if !decode {
            text = nil
        } else if escaped {
            decoded += bytes[run..<offset]
            text = decoded[...]
        } else {
            text = bytes[run..<offset]
        }
        offset += 1
        return text
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard end - offset >= 4 else { throw failure("an incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[offset]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// Scans a number by JSON's grammar; returns its text.
    private mutating func scanNumber() throws(Failure) -> String {
        let start = offset
        func digits() -> Int {
            let first = offset
            while offset < end, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") { offset += 1 }
            return offset - first
        }
        if offset < end, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < end, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") else {
            throw failure("a number needs a digit after '-'", at: start)
        }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else {
            _ = digits()
        }
        if offset < end, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw failure("a number needs digits after its '.'", at: start) }
        }
        if offset < end, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < end, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw failure("a number needs digits in its exponent", at: start) }
        }
        guard offset - start <= TraceLimits.numberCharacters else {
            throw failure("a number of \(offset - start) characters (the limit is \(TraceLimits.numberCharacters))", at: start)
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    // MARK: Positions

    /// The 1-based line and column (in bytes) of `offset` in `bytes`, counting from `start`, which
    /// is on line `firstLine`.
    static func position(of offset: Int, in bytes: [UInt8], from start: Int = 0, firstLine: Int = 1) -> (line: Int, column: Int) {
        var line = firstLine, lineStart = start
        var i = start
        let stop = min(offset, bytes.count)
        while i < stop {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return (line, offset - lineStart + 1)
    }
}

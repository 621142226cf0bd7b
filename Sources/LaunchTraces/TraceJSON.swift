import LaunchCore

/// The trace readers' JSON reader (RFC 8259) over bytes in memory: it hands out one token at a
/// time, so a reader keeps only the fields it needs and skips the rest without building values. No
/// recursion: containers are tracked on a stack of at most ``maximumDepth``.
///
/// Its tokens come from ``JSONScanner``, the tokenizer every JSON reader shares, with its
/// rules (no comments, `NaN`, leading zeros or raw control characters in strings; numbers that fit
/// a finite `Double`), read leniently for text: invalid UTF-8 and lone surrogates in strings become
/// U+FFFD (names are only shown, never trusted), and digits too small for a `Double` read as 0. On
/// top of them: no trailing commas, numbers of at most ``TraceLimits/numberCharacters`` characters,
/// and messages worded as the trace readers word them, at a byte offset. A copy shares its
/// tokenizer's position: pass it `inout`, as the readers do.
struct TraceJSON {
    /// Where the input is wrong: a byte offset into the bytes given to ``init(_:from:to:maximumDepth:)``.
    struct Failure: Error, Equatable {
        var offset: Int
        var reason: String
    }

    private let bytes: [UInt8]
    /// The tokenizer over `bytes` (its input is pointed at them again for each token: ``scan(from:_:)``).
    private let scanner: JSONScanner
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
        let input = bytes.withUnsafeBufferPointer { JSONInput(path: "", bytes: $0, maximumTokenBytes: TraceLimits.fileBytes) }
        input.end = min(end ?? bytes.count, bytes.count)
        input.pos = min(start, input.end)
        scanner = JSONScanner(input: input, lenientText: true, underflowToZero: true)
        self.maximumDepth = min(max(maximumDepth, 1), UInt64.bitWidth)
    }

    /// The next byte to read.
    var offset: Int { scanner.input.pos }
    private var end: Int { scanner.input.end }

    /// Runs `body` on the tokenizer, its input pointed at `bytes` (valid only inside); a failure is
    /// worded as the trace readers word it (``traceFailure(_:start:)``), `start` being where the token began.
    private func scan<R>(from start: Int? = nil, _ body: (JSONScanner) throws(JSONFailure) -> R) throws(Failure) -> R {
        let scanner = self.scanner
        do {
            return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONFailure) -> R in
                scanner.input.rebase(buffer)
                return try body(scanner)
            }
        } catch {
            throw traceFailure(error, start: start ?? offset)
        }
    }

    // MARK: Bytes

    /// The next byte after white space, not consumed; `nil` at the end.
    mutating func peek() -> UInt8? {
        // In memory, peeking never fails.
        (try? scan { (s) throws(JSONFailure) in try s.peek() }) ?? nil
    }

    /// Fails unless only white space is left.
    mutating func expectEnd() throws(Failure) {
        if let c = peek() { throw unexpected(c, "the end of the value") }
    }

    func failure(_ reason: String, at position: Int? = nil) -> Failure {
        Failure(offset: position ?? offset, reason: reason)
    }

    private func unexpected(_ c: UInt8?, _ expected: String, at position: Int? = nil) -> Failure {
        guard let c else { return failure("unexpected end of input, expected \(expected)", at: position) }
        let shown = c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16, uppercase: true))"
        return failure("unexpected \(shown), expected \(expected)", at: position)
    }

    /// What comes after a complete value here: the end, or the innermost container's `,` or close.
    private var expectedAfterValue: String {
        guard depth > 0 else { return "the end of the value" }
        return objects & (1 << UInt64(depth - 1)) != 0 ? "',' or '}'" : "',' or ']'"
    }

    /// The tokenizer's failure as the trace readers word it; `start` is where the token began.
    private func traceFailure(_ failure: JSONFailure, start: Int) -> Failure {
        switch failure.rule {
        case .controlCharacter(let c):
            return self.failure("a control character (0x\(String(c, radix: 16, uppercase: true))) inside a string; it must be escaped", at: failure.offset)
        case .unknownEscape(let c):
            return self.failure("an unknown escape '\\\(Character(Unicode.Scalar(c)))' in a string", at: failure.offset)
        case .unicodeEscapeDigits(let incomplete):
            return self.failure(incomplete ? "an incomplete \\u escape" : "a \\u escape needs four hexadecimal digits", at: failure.offset)
        case .unterminatedString:
            return self.failure("a string that never ends", at: start)
        case .numberNeedsDigits(let after, _):
            let reason =
                switch after {
                case UInt8(ascii: "-"): "a number needs a digit after '-'"
                case UInt8(ascii: "."): "a number needs digits after its '.'"
                default: "a number needs digits in its exponent"
                }
            return self.failure(reason, at: start)
        case .numberEndsEarly(let grammarEnd, _):
            // The number is what JSON's grammar reads; the byte after it cannot come there.
            return unexpected(grammarEnd < end ? bytes[grammarEnd] : nil, expectedAfterValue, at: grammarEnd)
        case .unknownLiteral:
            return unexpected(bytes[start], "a value", at: start)
        case .numberTooLarge:
            return self.failure(
                "the number \(String(decoding: bytes[start..<min(offset, start + TraceLimits.numberCharacters)], as: UTF8.self)) is out of range", at: start)
        case .invalidUTF8, .loneSurrogate, .tokenTooLong, .numberTooSmall, nil:
            // Not raised for this lenient input (but for a token of 256 MiB), or the tokenizer's own wording.
            return self.failure(failure.message, at: failure.offset)
        }
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
        scanner.input.pos += 1
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
        guard try nextItem(of: UInt8(ascii: "{"), UInt8(ascii: "}"), "a key") else { return nil }
        guard peek() == UInt8(ascii: "\"") else { throw unexpected(peek(), "a key in double quotes") }
        let key: String
        if decodingKey {
            key = try scan { (s) throws(JSONFailure) in s.text(try s.string()) }
        } else {
            key = try skipString()
        }
        guard peek() == UInt8(ascii: ":") else { throw unexpected(peek(), "':' after a key") }
        scanner.input.pos += 1
        last = UInt8(ascii: ":")
        return key
    }

    /// `true` when the innermost open array has another element (a `,` before it consumed);
    /// `false` when it ends (its `]` consumed). With `endOfInputCloses`, the end of the input also
    /// ends it: the Trace Event Format lets a program that stops early leave out the final `]`.
    mutating func nextElement(endOfInputCloses: Bool = false) throws(Failure) -> Bool {
        if endOfInputCloses, peek() == nil {
            close()
            return false
        }
        guard try nextItem(of: UInt8(ascii: "["), UInt8(ascii: "]"), "a value") else { return false }
        if endOfInputCloses, peek() == nil {
            close()
            return false
        }
        return true
    }

    /// Before the next member or element (`item`) of the innermost container, opened by `open`:
    /// `true` when there is one (the `,` before it consumed), `false` when `close` ends the
    /// container (consumed). A comma before `close` is refused.
    private mutating func nextItem(of open: UInt8, _ close: UInt8, _ item: String) throws(Failure) -> Bool {
        let c = peek()
        if c == close {
            guard last != UInt8(ascii: ",") else { throw trailingComma(before: close) }
            self.close()
            return false
        }
        if c == UInt8(ascii: ",") {
            guard last == UInt8(ascii: "v") else { throw unexpected(c, item) }
            scanner.input.pos += 1
            last = UInt8(ascii: ",")
            if peek() == close { throw trailingComma(before: close) }
            return true
        }
        guard last == open else { throw unexpected(c, "',' or '\(Character(Unicode.Scalar(close)))'") }
        return true
    }

    private func trailingComma(before close: UInt8) -> Failure {
        failure("a trailing comma before '\(Character(Unicode.Scalar(close)))'")
    }

    private mutating func close() {
        if offset < end { scanner.input.pos += 1 }
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
        let token = try scan { (s) throws(JSONFailure) in try s.string() }
        last = UInt8(ascii: "v")
        guard token.hasEscapes else { return bytes[token.start..<(token.start + token.count)] }
        var scratch: [UInt8] = []
        return try scan { s in s.decoded(token, into: &scratch) }[...]
    }

    /// Skips a string (its opening quote next); returns an empty key.
    private mutating func skipString() throws(Failure) -> String {
        _ = try scan { (s) throws(JSONFailure) in try s.string() }
        return ""
    }

    /// Reads a number value: finite, at most ``TraceLimits/numberCharacters`` characters.
    mutating func readNumber() throws(Failure) -> Double {
        let start = offset
        let token = try scanNumber()
        let value = try scan(from: start) { (s) throws(JSONFailure) in try s.double(token) }
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
        case .object: return try openObject()
        case .array: return try openArray()
        case .string: _ = try skipString()
        case .number:
            // Converted only when it could overflow (JSONScanner.checkDouble).
            let start = offset
            let token = try scanNumber()
            try scan(from: start) { (s) throws(JSONFailure) in try s.checkDouble(token) }
        case .literal:
            let start = offset
            _ = try scan(from: start) { (s) throws(JSONFailure) in try s.literal() }
        }
        last = UInt8(ascii: "v")
    }

    /// Scans a number by JSON's grammar, at most ``TraceLimits/numberCharacters`` characters.
    private mutating func scanNumber() throws(Failure) -> JSONScanner.NumberToken {
        let start = offset
        let token = try scan(from: start) { (s) throws(JSONFailure) in try s.number() }
        guard token.count <= TraceLimits.numberCharacters else {
            throw failure("a number of \(token.count) characters (the limit is \(TraceLimits.numberCharacters))", at: start)
        }
        return token
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

#if canImport(Glibc)
import Glibc
#endif

/// Why a JSON document was refused, before the file name is added.
public struct JSONFailure: Error {
    public enum Kind: Equatable, Sendable {
        case syntax, schema, limit
        /// The input's file could not be read further (``JSONInput/refill()``).
        case input(JSONInputError)
    }
    public var kind: Kind
    /// The tokenizer's wording (or the caller's, for the failures it makes itself).
    public var message: String
    /// Where: the key path, e.g. `runs[3].phases[12].duration`.
    public var keyPath: String
    /// 1-based line and column (in bytes) of the byte at fault.
    public var line: Int
    public var column: Int
    /// The offset of the byte at fault in the whole input.
    public var offset = 0
    /// The tokenizer's rule the input broke, for a reader that words it its own way; `nil` for
    /// the failures the callers make.
    public var rule: JSONRule?

    /// A failure whose message is the whole reason, with no place in the input (`line` -1).
    public static func plain(_ kind: Kind, _ message: String) -> JSONFailure {
        JSONFailure(kind: kind, message: message, keyPath: "", line: -1, column: 0)
    }
}

/// A rule of a token's grammar or limits (RFC 8259, and ``JSONInput/maximumTokenBytes``), as
/// ``JSONScanner`` enforces it for every reader.
public enum JSONRule: Equatable, Sendable {
    /// A raw byte below 0x20 inside a string.
    case controlCharacter(UInt8)
    /// A backslash followed by a byte that starts no escape (the byte).
    case unknownEscape(UInt8)
    /// `\u` without four hexadecimal digits: the input ends first (`incomplete`) or one is not a digit.
    case unicodeEscapeDigits(incomplete: Bool)
    /// Half of a surrogate pair in a `\u` escape, without the other half (its value).
    case loneSurrogate(UInt32)
    case invalidUTF8
    case unterminatedString
    /// A string or number longer than the input's ``JSONInput/maximumTokenBytes``.
    case tokenTooLong
    /// A number without digits after `-`, `.` or `e` (that byte) where one must be (the input's offset).
    case numberNeedsDigits(after: UInt8, at: Int)
    /// A number whose grammar ends at `grammarEnd` (the input's offset) but whose token goes on:
    /// a leading zero (`01`) or a sign or point out of place (`1-2`, `1.2.3`).
    case numberEndsEarly(grammarEnd: Int, leadingZero: Bool)
    /// Not `true`, `false` or `null`, though it starts like one: the first byte that differs (the
    /// input's offset; its end when the input ends first).
    case unknownLiteral(mismatchAt: Int)
    /// A number that overflows a `Double` to infinity.
    case numberTooLarge
    /// Non-zero digits that round to 0 as a `Double` (refused unless the scanner reads them as 0).
    case numberTooSmall
}

/// A strict, byte-level JSON tokenizer over a ``JSONInput`` (RFC 8259: no comments, trailing
/// commas, `NaN` or leading zeros; strings of valid UTF-8 without raw control characters, every
/// `\u` surrogate paired; numbers that fit a `Double` without overflowing to infinity or, unless
/// `underflowToZero`, underflowing to zero; no token longer than ``JSONInput/maximumTokenBytes``).
/// The one tokenizer of every JSON reader: the result readers, ``JSONParser``, the trace readers.
///
/// Tokens are returned as positions in the input's buffer, valid until the next call that
/// consumes input. Everything is checked byte by byte, with no allocation per token except for
/// strings that contain escapes.
public final class JSONScanner {
    public let input: JSONInput
    /// The key path of the current value, for messages (maintained by the callers).
    public var keyPath: () -> String = { "" }
    /// Invalid UTF-8 and lone surrogates are read (as U+FFFD) rather than refused: for names that
    /// are only shown, never trusted (the trace readers).
    public let lenientText: Bool
    /// Non-zero digits that round to 0 read as 0 rather than being refused.
    public let underflowToZero: Bool

    public init(input: JSONInput, lenientText: Bool = false, underflowToZero: Bool = false) {
        self.input = input
        self.lenientText = lenientText
        self.underflowToZero = underflowToZero
    }

    // MARK: Failures

    public func failure(_ kind: JSONFailure.Kind, _ message: String, rule: JSONRule? = nil) -> JSONFailure {
        JSONFailure(kind: kind, message: message, keyPath: keyPath(), line: input.line, column: input.column, offset: input.offset, rule: rule)
    }

    public func syntax(_ message: String, rule: JSONRule? = nil) -> JSONFailure { failure(.syntax, message, rule: rule) }

    // MARK: Bytes

    /// The next byte that is not white space, not consumed; `nil` at the end of input.
    public func peek() throws(JSONFailure) -> UInt8? {
        let input = self.input
        while true {
            let e = input.end, b = input.base
            var newlines = 0, lastLineStart = 0
            let p = Self.skipWhiteSpace(b, from: input.pos, to: e, newlines: &newlines, lastLineStart: &lastLineStart)
            input.advance(to: p, newlines: newlines, lastLineStart: lastLineStart)
            if p < e { return b[p] }
            if try !refill() { return nil }
        }
    }

    /// The position of the first byte in `b[p..<e]` that is not JSON's white space (space, line feed,
    /// tab, carriage return), or `e`; each line feed crossed adds 1 to `newlines` and sets
    /// `lastLineStart` to the position after it. For ``peek()``, and for a reader in another module
    /// that scans the buffer itself (the result reader's plain-phase scanner).
    ///
    /// Pretty-printed results are mostly indentation: after a line feed, spaces are skipped eight at a time.
    @inlinable @inline(__always)
    public static func skipWhiteSpace(
        _ b: UnsafePointer<UInt8>, from p: Int, to e: Int, newlines: inout Int, lastLineStart: inout Int
    ) -> Int {
        var p = p
        while p < e {
            let c = b[p]
            if c == 0x20 {
                p += 1
            } else if c == 0x0A {
                p += 1
                newlines += 1
                lastLineStart = p
                while e - p >= 8 && UnsafeRawPointer(b + p).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020 { p += 8 }
            } else if c == 0x09 || c == 0x0D {
                p += 1
            } else {
                return p
            }
        }
        return p
    }

    public func refill() throws(JSONFailure) -> Bool {
        do {
            return try input.refill()
        } catch {
            throw failure(.input(error), "")
        }
    }

    /// Consumes `byte` (after white space) or fails with `expected`.
    public func expect(_ byte: UInt8, _ expected: String) throws(JSONFailure) {
        guard try peek() == byte else { throw syntax(try found(expected)) }
        input.pos += 1
    }

    /// "expected X, found Y".
    public func found(_ expected: String) throws(JSONFailure) -> String {
        guard let c = try peek() else { return "expected \(expected), found the end of the file" }
        return "expected \(expected), found \(Self.shown(c))"
    }

    /// A byte as a message shows it: `'x'` when printable ASCII, else `byte 0xff`.
    public static func shown(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        let digits = Array("0123456789abcdef")
        return "byte 0x\(digits[Int(c >> 4)])\(digits[Int(c & 15)])"
    }

    /// After a value in an object or array: `true` for a comma, `false` for `close`.
    public func commaOr(_ close: UInt8, _ expected: String) throws(JSONFailure) -> Bool {
        let c = try peek()
        if c == 0x2C { input.pos += 1; return true }
        if c == close { input.pos += 1; return false }
        throw syntax(try found(expected))
    }

    // MARK: Literals

    /// Consumes `true`, `false` or `null` (whichever starts here); returns the byte it started with.
    public func literal() throws(JSONFailure) -> UInt8 {
        guard let c = try peek() else { throw syntax("expected a value, found the end of the file") }
        let word: [UInt8]
        switch c {
        case 0x74: word = Array("true".utf8)
        case 0x66: word = Array("false".utf8)
        case 0x6E: word = Array("null".utf8)
        default: throw syntax(try found("a value"))
        }
        while input.end - input.pos < word.count {
            if try !refill() { break }
        }
        let mismatch = word.indices.first { input.pos + $0 >= input.end || input.base[input.pos + $0] != word[$0] }
        if let mismatch {
            let rule = JSONRule.unknownLiteral(mismatchAt: input.offset(at: input.pos + mismatch))
            let ending = input.end - input.pos < word.count ? ", found the end of the file" : ""
            throw syntax("expected '\(String(decoding: word, as: UTF8.self))'\(ending)", rule: rule)
        }
        input.pos += word.count
        return c
    }

    // MARK: Strings

    /// A string token: its raw bytes (between the quotes) at `base[start..<start + count]`.
    public struct StringToken {
        public var start: Int
        public var count: Int
        public var hasEscapes: Bool
    }

    /// Scans a string at the current position (after white space), validating escapes and UTF-8.
    public func string() throws(JSONFailure) -> StringToken {
        guard try peek() == 0x22 else { throw syntax(try found("a string")) }
        var scanned = 1  // Bytes of the token checked so far, from input.pos.
        var escapes = false
        while true {
            let b = input.base, e = input.end, start = input.pos
            var p = start + scanned
            while p < e {
                let c = b[p]
                if c == 0x22 {
                    input.pos = p + 1
                    let token = StringToken(start: start + 1, count: p - start - 1, hasEscapes: escapes)
                    guard token.count <= input.maximumTokenBytes else { throw tooLong() }
                    return token
                }
                if c < 0x20 {
                    throw syntaxAt(p, "a control character (0x\(String(c, radix: 16))) inside a string must be escaped", .controlCharacter(c))
                }
                if c == 0x5C {
                    // An escape needs up to 12 bytes (\uD83D\uDE00) in view.
                    if e - p < 12 && !input.atEndOfInput { break }
                    escapes = true
                    p = try escape(at: p, end: e)
                    continue
                }
                if c < 0x80 { p += 1; continue }
                if e - p < 4 && !input.atEndOfInput { break }
                p = try utf8(at: p, end: e)
            }
            scanned = p - start
            if scanned > input.maximumTokenBytes + 2 { throw tooLong() }
            if p >= e || !input.atEndOfInput {
                if try !refill() && p >= input.end { throw syntax("unterminated string", rule: .unterminatedString) }
            }
        }
    }

    private func tooLong() -> JSONFailure {
        failure(.limit, "a string or number longer than \(input.maximumTokenBytes >> 20) MiB", rule: .tokenTooLong)
    }

    /// A syntax failure at `base[p]`, on the line of `pos`.
    private func syntaxAt(_ p: Int, _ message: String, _ rule: JSONRule) -> JSONFailure {
        var f = syntax(message, rule: rule)
        f.column += p - input.pos
        f.offset += p - input.pos
        return f
    }

    /// Checks the escape at `p` (a backslash); returns the position after it.
    private func escape(at p: Int, end e: Int) throws(JSONFailure) -> Int {
        let b = input.base
        guard p + 1 < e else { throw syntaxAt(p, "unterminated string", .unterminatedString) }
        switch b[p + 1] {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: return p + 2
        case 0x75:
            let unit = try unicodeEscape(at: p, end: e)
            if unit >= 0xDC00 && unit <= 0xDFFF {
                if lenientText { return p + 6 }
                throw syntaxAt(p, "a low surrogate \\u escape without a high one", .loneSurrogate(unit))
            }
            if unit >= 0xD800 && unit <= 0xDBFF {
                if p + 11 < e, b[p + 6] == 0x5C, b[p + 7] == 0x75, let low = hex4(p + 8, e), low >= 0xDC00 && low <= 0xDFFF { return p + 12 }
                if lenientText { return p + 6 }
                if endsInsideEscape(at: p + 6, end: e) { throw syntax("unterminated string", rule: .unterminatedString) }
                throw syntaxAt(p, "a high surrogate \\u escape without a low one", .loneSurrogate(unit))
            }
            return p + 6
        case let c: throw syntaxAt(p, "invalid escape", .unknownEscape(c))
        }
    }

    /// Whether the input ends at `e` inside what could still be a `\\uXXXX` escape starting at `q`.
    private func endsInsideEscape(at q: Int, end e: Int) -> Bool {
        guard e - q < 6 else { return false }
        for k in q..<e {
            let c = input.base[k]
            guard k == q ? c == 0x5C : k == q + 1 ? c == 0x75 : Self.hexDigit(c) != nil else { return false }
        }
        return true
    }

    /// The four hexadecimal digits of the `\\u` escape at `p`, or a failure at the first that is missing or wrong.
    private func unicodeEscape(at p: Int, end e: Int) throws(JSONFailure) -> UInt32 {
        if let unit = hex4(p + 2, e) { return unit }
        let message = "\\u needs four hexadecimal digits"
        guard e - (p + 2) >= 4 else { throw syntaxAt(p + 2, message, .unicodeEscapeDigits(incomplete: true)) }
        var q = p + 2
        while Self.hexDigit(input.base[q]) != nil { q += 1 }
        throw syntaxAt(q, message, .unicodeEscapeDigits(incomplete: false))
    }

    private func hex4(_ p: Int, _ e: Int) -> UInt32? {
        guard p + 4 <= e else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            guard let digit = Self.hexDigit(input.base[p + i]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// Checks one multi-byte UTF-8 sequence at `p`; returns the position after it.
    /// No overlong forms, no encoded surrogates, nothing past U+10FFFF; a sequence valid as far as
    /// the input goes but cut short by its end leaves the string unterminated.
    private func utf8(at p: Int, end e: Int) throws(JSONFailure) -> Int {
        let b = input.base
        var length = 0, low: UInt8 = 0x80, high: UInt8 = 0xBF  // The range of the second byte.
        switch b[p] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: break
        }
        if length > 0 {
            var k = 1
            while k < length, p + k < e, b[p + k] >= (k == 1 ? low : 0x80), b[p + k] <= (k == 1 ? high : 0xBF) { k += 1 }
            if k == length { return p + length }
            if p + k >= e && !lenientText { throw syntax("unterminated string", rule: .unterminatedString) }
        }
        if lenientText { return p + 1 }
        throw syntaxAt(p, "invalid UTF-8 in a string", .invalidUTF8)
    }

    /// The bytes a string stands for, escapes decoded (into `scratch`, which is returned).
    public func decoded(_ token: StringToken, into scratch: inout [UInt8]) -> [UInt8] {
        scratch.removeAll(keepingCapacity: true)
        let b = input.base
        var p = token.start
        let e = token.start + token.count
        while p < e {
            let c = b[p]
            guard c == 0x5C else { scratch.append(c); p += 1; continue }
            let kind = b[p + 1]
            switch kind {
            case 0x62: scratch.append(0x08)
            case 0x66: scratch.append(0x0C)
            case 0x6E: scratch.append(0x0A)
            case 0x72: scratch.append(0x0D)
            case 0x74: scratch.append(0x09)
            case 0x75:
                var scalar = hex4(p + 2, e) ?? 0xFFFD
                p += 6
                // Paired, unless the scanner is lenient (a lone half is then U+FFFD).
                if scalar >= 0xD800 && scalar <= 0xDBFF, p + 1 < e, b[p] == 0x5C, b[p + 1] == 0x75, let low = hex4(p + 2, e),
                    low >= 0xDC00 && low <= 0xDFFF
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    p += 6
                }
                for unit in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { scratch.append(unit) }
                continue
            default: scratch.append(kind)  // " \ /
            }
            p += 2
        }
        return scratch
    }

    /// The string a token stands for.
    public func text(_ token: StringToken) -> String {
        if !token.hasEscapes {
            return String(decoding: UnsafeBufferPointer(start: input.base + token.start, count: token.count), as: UTF8.self)
        }
        var scratch: [UInt8] = []
        return String(decoding: decoded(token, into: &scratch), as: UTF8.self)
    }

    /// Whether a token without escapes is exactly `key`.
    public func equals(_ token: StringToken, _ key: StaticString) -> Bool {
        guard !token.hasEscapes, token.count == key.utf8CodeUnitCount else { return false }
        return memcmp(input.base + token.start, key.utf8Start, token.count) == 0
    }

    // MARK: Numbers

    /// A number token at `base[start..<start + count]`.
    public struct NumberToken {
        public var start: Int
        public var count: Int
        /// No fraction and no exponent.
        public var isInteger: Bool
        /// An exponent (`e` or `E`) is written.
        public var hasExponent = false
    }

    /// Scans a number at the current position (after white space), checking the JSON grammar.
    public func number() throws(JSONFailure) -> NumberToken {
        guard let first = try peek(), first == 0x2D || (first >= 0x30 && first <= 0x39) else { throw syntax(try found("a number")) }
        // Make the whole token contiguous: numbers end at a byte that cannot continue them.
        var scanned = 0
        while true {
            let b = input.base, e = input.end
            var p = input.pos + scanned
            while p < e, Self.continuesNumber(b[p]) { p += 1 }
            scanned = p - input.pos
            if scanned > input.maximumTokenBytes { throw tooLong() }
            if p < e || input.atEndOfInput { break }
            if try !refill() { break }
        }
        let b = input.base, start = input.pos, e = start + scanned
        var p = start
        func digits() -> Int {
            let from = p
            while p < e && b[p] >= 0x30 && b[p] <= 0x39 { p += 1 }
            return p - from
        }
        if b[p] == 0x2D { p += 1 }
        let leading = p
        let integerDigits = digits()
        guard integerDigits > 0 else { throw syntax("a number needs digits after '-'", rule: .numberNeedsDigits(after: 0x2D, at: input.offset(at: p))) }
        guard integerDigits == 1 || b[leading] != 0x30 else {
            throw syntax("a number must not have leading zeros", rule: .numberEndsEarly(grammarEnd: input.offset(at: leading + 1), leadingZero: true))
        }
        var isInteger = true, hasExponent = false
        if p < e && b[p] == 0x2E {
            p += 1
            isInteger = false
            guard digits() > 0 else { throw syntax("a number needs digits after '.'", rule: .numberNeedsDigits(after: 0x2E, at: input.offset(at: p))) }
        }
        if p < e && (b[p] == 0x65 || b[p] == 0x45) {
            p += 1
            isInteger = false
            hasExponent = true
            if p < e && (b[p] == 0x2B || b[p] == 0x2D) { p += 1 }
            guard digits() > 0 else { throw syntax("a number needs digits in its exponent", rule: .numberNeedsDigits(after: 0x65, at: input.offset(at: p))) }
        }
        guard p == e else { throw syntax("malformed number", rule: .numberEndsEarly(grammarEnd: input.offset(at: p), leadingZero: false)) }
        input.pos = e
        return NumberToken(start: start, count: scanned, isInteger: isInteger, hasExponent: hasExponent)
    }

    private static func continuesNumber(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x2D || c == 0x2B || c == 0x65 || c == 0x45
    }

    /// The token as an `Int`: integer syntax only, within Int64.
    public func integer(_ token: NumberToken) throws(JSONFailure) -> Int {
        guard token.isInteger else { throw failure(.schema, "expected an integer, found \(text(token))") }
        let b = input.base
        let (negative, digits, e) = signAndDigits(token)
        var magnitude: UInt64 = 0
        for p in digits..<e {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt64(b[p] - 0x30))
            guard !o1, !o2 else { throw failure(.schema, "\(text(token)) is out of the integer range") }
            magnitude = plus
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw failure(.schema, "\(text(token)) is out of the integer range") }
            return magnitude == UInt64(Int64.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw failure(.schema, "\(text(token)) is out of the integer range") }
        return Int(magnitude)
    }

    /// Whether the token is negative, where its digits start (after the sign) and where it ends.
    @inline(__always) private func signAndDigits(_ token: NumberToken) -> (negative: Bool, digits: Int, end: Int) {
        let negative = input.base[token.start] == 0x2D
        return (negative, negative ? token.start + 1 : token.start, token.start + token.count)
    }

    private static let exactPowers: [Double] = (0...22).map { p in (0..<p).reduce(1.0) { acc, _ in acc * 10 } }

    /// The token as a finite `Double`, correctly rounded: exact arithmetic when the digits fit 2⁵³
    /// and the exponent is small (Clinger's fast path), else `strtod`. Infinite results, and
    /// non-zero digits that round to zero, are refused.
    public func double(_ token: NumberToken) throws(JSONFailure) -> Double {
        let b = input.base
        let (negative, digits, e) = signAndDigits(token)
        var p = digits
        var mantissa: UInt64 = 0
        var significant = 0, exponent = 0
        var nonZero = false
        var fast = true
        while p < e && b[p] >= 0x30 && b[p] <= 0x39 {
            let d = b[p] - 0x30
            if d != 0 { nonZero = true }
            if significant < 19 { mantissa = mantissa * 10 + UInt64(d); if mantissa > 0 { significant += 1 } } else { fast = false; exponent += 1 }
            p += 1
        }
        if p < e && b[p] == 0x2E {
            p += 1
            while p < e && b[p] >= 0x30 && b[p] <= 0x39 {
                let d = b[p] - 0x30
                if d != 0 { nonZero = true }
                if significant < 19 { mantissa = mantissa * 10 + UInt64(d); if mantissa > 0 { significant += 1 }; exponent -= 1 } else { fast = false }
                p += 1
            }
        }
        if p < e {
            p += 1  // e or E
            var exponentNegative = false
            if b[p] == 0x2B || b[p] == 0x2D { exponentNegative = b[p] == 0x2D; p += 1 }
            var value = 0
            while p < e {
                if value < 100_000 { value = value * 10 + Int(b[p] - 0x30) }
                p += 1
            }
            exponent += exponentNegative ? -value : value
        }
        if !nonZero { return negative ? -0.0 : 0.0 }
        if fast && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            value = exponent >= 0 ? value * Self.exactPowers[exponent] : value / Self.exactPowers[-exponent]
            return negative ? -value : value
        }
        // The general case: strtod on a NUL-terminated copy (JSON numbers use '.', as the C locale does).
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { copy in
            for i in 0..<token.count { copy[i] = CChar(bitPattern: b[token.start + i]) }
            copy[token.count] = 0
            return strtod(copy.baseAddress!, nil)
        }
        guard value.isFinite else { throw failure(.schema, "\(text(token)) is too large for a number", rule: .numberTooLarge) }
        guard value != 0 || underflowToZero else {
            throw failure(.schema, "\(text(token)) is too small for a number (it rounds to 0)", rule: .numberTooSmall)
        }
        return value
    }

    /// Checks that the token is a finite number that does not underflow to zero, as ``double(_:)``
    /// does, without converting it when that is certain: without an exponent and within 300 bytes,
    /// a number is below 10³⁰⁰ and, unless all its digits are 0, above 10⁻³⁰⁰.
    public func checkDouble(_ token: NumberToken) throws(JSONFailure) {
        if !token.hasExponent && token.count <= 300 { return }
        _ = try double(token)
    }

    /// The token's text, for messages.
    public func text(_ token: NumberToken) -> String {
        String(decoding: UnsafeBufferPointer(start: input.base + token.start, count: Swift.min(token.count, 40)), as: UTF8.self)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Why a JSON document was refused, before the file name and position are added.
struct JSONFailure: Error {
    enum Kind { case syntax, schema, limit }
    var kind: Kind
    var message: String
    /// Where: the key path, e.g. `runs[3].phases[12].duration`.
    var keyPath: String
    var line: Int
    var column: Int
}

/// A strict, byte-level JSON tokenizer over a ``JSONInput`` (RFC 8259: no comments, trailing
/// commas, `NaN` or leading zeros; strings of valid UTF-8 without raw control characters; numbers
/// that fit a `Double` without overflowing to infinity or underflowing to zero).
///
/// Tokens are returned as positions in the input's buffer, valid until the next call that
/// consumes input. Everything is checked byte by byte, with no allocation per token except for
/// strings that contain escapes.
final class JSONScanner {
    let input: JSONInput
    /// The key path of the current value, for messages (maintained by the callers).
    var keyPath: () -> String = { "" }

    init(input: JSONInput) {
        self.input = input
    }

    // MARK: Failures

    func failure(_ kind: JSONFailure.Kind, _ message: String) -> JSONFailure {
        JSONFailure(kind: kind, message: message, keyPath: keyPath(), line: input.line, column: input.column)
    }

    func syntax(_ message: String) -> JSONFailure { failure(.syntax, message) }

    // MARK: Bytes

    /// The next byte that is not white space, not consumed; `nil` at the end of input.
    ///
    /// Pretty-printed results are mostly indentation: after a line feed, spaces are skipped eight at a time.
    func peek() throws(JSONFailure) -> UInt8? {
        let input = self.input
        while true {
            var p = input.pos
            let e = input.end, b = input.base
            while p < e {
                let c = b[p]
                if c == 0x20 {
                    p += 1
                } else if c == 0x0A {
                    p += 1
                    input.line += 1
                    input.lineStart = input.offset(at: p)
                    while e - p >= 8 && UnsafeRawPointer(b + p).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020 { p += 8 }
                } else if c == 0x09 || c == 0x0D {
                    p += 1
                } else {
                    input.pos = p
                    return c
                }
            }
            input.pos = p
            if try !refill() { return nil }
        }
    }

    func refill() throws(JSONFailure) -> Bool {
        do {
            return try input.refill()
        } catch {
            throw failure(.limit, error.reason)
        }
    }

    /// Consumes `byte` (after white space) or fails with `expected`.
    func expect(_ byte: UInt8, _ expected: String) throws(JSONFailure) {
        guard try peek() == byte else { throw syntax(try found(expected)) }
        input.pos += 1
    }

    /// "expected X, found Y".
    func found(_ expected: String) throws(JSONFailure) -> String {
        guard let c = try peek() else { return "expected \(expected), found the end of the file" }
        let shown = c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : String(format16(c))
        return "expected \(expected), found \(shown)"
    }

    private func format16(_ c: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "byte 0x\(digits[Int(c >> 4)])\(digits[Int(c & 15)])"
    }

    /// After a value in an object or array: `true` for a comma, `false` for `close`.
    func commaOr(_ close: UInt8, _ expected: String) throws(JSONFailure) -> Bool {
        let c = try peek()
        if c == 0x2C { input.pos += 1; return true }
        if c == close { input.pos += 1; return false }
        throw syntax(try found(expected))
    }

    // MARK: Literals

    /// Consumes `true`, `false` or `null` (whichever starts here); returns the byte it started with.
    func literal() throws(JSONFailure) -> UInt8 {
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
        guard input.end - input.pos >= word.count else { throw syntax("expected '\(String(decoding: word, as: UTF8.self))', found the end of the file") }
        for (i, w) in word.enumerated() where input.base[input.pos + i] != w {
            throw syntax("expected '\(String(decoding: word, as: UTF8.self))'")
        }
        input.pos += word.count
        return c
    }

    // MARK: Strings

    /// A string token: its raw bytes (between the quotes) at `base[start..<start + count]`.
    struct StringToken {
        var start: Int
        var count: Int
        var hasEscapes: Bool
    }

    /// Scans a string at the current position (after white space), validating escapes and UTF-8.
    func string() throws(JSONFailure) -> StringToken {
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
                    guard token.count <= ResultLimits.maximumTokenBytes else { throw tooLong() }
                    return token
                }
                if c < 0x20 { throw syntaxAt(p, "a control character (0x\(String(c, radix: 16))) inside a string must be escaped") }
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
            if scanned > ResultLimits.maximumTokenBytes + 2 { throw tooLong() }
            if p >= e || !input.atEndOfInput {
                if try !refill() && p >= input.end { throw syntax("unterminated string") }
            }
        }
    }

    private func tooLong() -> JSONFailure {
        failure(.limit, "a string or number longer than \(ResultLimits.maximumTokenBytes >> 20) MiB")
    }

    private func syntaxAt(_ p: Int, _ message: String) -> JSONFailure {
        var f = syntax(message)
        f.column += p - input.pos
        return f
    }

    /// Checks the escape at `p` (a backslash); returns the position after it.
    private func escape(at p: Int, end e: Int) throws(JSONFailure) -> Int {
        let b = input.base
        guard p + 1 < e else { throw syntaxAt(p, "unterminated escape") }
        switch b[p + 1] {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: return p + 2
        case 0x75:
            guard let unit = hex4(p + 2, e) else { throw syntaxAt(p, "\\u needs four hexadecimal digits") }
            if unit >= 0xDC00 && unit <= 0xDFFF { throw syntaxAt(p, "a low surrogate \\u escape without a high one") }
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard p + 11 < e + 0, b[p + 6] == 0x5C, b[p + 7] == 0x75, let low = hex4(p + 8, e), low >= 0xDC00 && low <= 0xDFFF else {
                    throw syntaxAt(p, "a high surrogate \\u escape without a low one")
                }
                return p + 12
            }
            return p + 6
        default: throw syntaxAt(p, "invalid escape")
        }
    }

    private func hex4(_ p: Int, _ e: Int) -> UInt32? {
        guard p + 4 <= e else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let c = input.base[p + i]
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x41...0x46: digit = c - 0x41 + 10
            case 0x61...0x66: digit = c - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Checks one multi-byte UTF-8 sequence at `p`; returns the position after it.
    private func utf8(at p: Int, end e: Int) throws(JSONFailure) -> Int {
        let b = input.base
        let c = b[p]
        func continuation(_ i: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            p + i < e && b[p + i] >= low && b[p + i] <= high
        }
        switch c {
        case 0xC2...0xDF where continuation(1): return p + 2
        case 0xE0 where continuation(1, 0xA0) && continuation(2): return p + 3
        case 0xE1...0xEC, 0xEE...0xEF: if continuation(1) && continuation(2) { return p + 3 }
        case 0xED where continuation(1, 0x80, 0x9F) && continuation(2): return p + 3
        case 0xF0 where continuation(1, 0x90) && continuation(2) && continuation(3): return p + 4
        case 0xF1...0xF3 where continuation(1) && continuation(2) && continuation(3): return p + 4
        case 0xF4 where continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3): return p + 4
        default: break
        }
        throw syntaxAt(p, "invalid UTF-8 in a string")
    }

    /// The bytes a string stands for, escapes decoded (into `scratch`, which is returned).
    func decoded(_ token: StringToken, into scratch: inout [UInt8]) -> [UInt8] {
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
                if scalar >= 0xD800 && scalar <= 0xDBFF, let low = hex4(p + 2, e) {
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
    func text(_ token: StringToken) -> String {
        if !token.hasEscapes {
            return String(decoding: UnsafeBufferPointer(start: input.base + token.start, count: token.count), as: UTF8.self)
        }
        var scratch: [UInt8] = []
        return String(decoding: decoded(token, into: &scratch), as: UTF8.self)
    }

    /// Whether a token without escapes is exactly `key`.
    func equals(_ token: StringToken, _ key: StaticString) -> Bool {
        guard !token.hasEscapes, token.count == key.utf8CodeUnitCount else { return false }
        return memcmp(input.base + token.start, key.utf8Start, token.count) == 0
    }

    // MARK: Numbers

    /// A number token at `base[start..<start + count]`.
    struct NumberToken {
        var start: Int
        var count: Int
        /// No fraction and no exponent.
        var isInteger: Bool
        /// An exponent (`e` or `E`) is written.
        var hasExponent = false
    }

    /// Scans a number at the current position (after white space), checking the JSON grammar.
    func number() throws(JSONFailure) -> NumberToken {
        guard let first = try peek(), first == 0x2D || (first >= 0x30 && first <= 0x39) else { throw syntax(try found("a number")) }
        // Make the whole token contiguous: numbers end at a byte that cannot continue them.
        var scanned = 0
        while true {
            let b = input.base, e = input.end
            var p = input.pos + scanned
            while p < e, Self.continuesNumber(b[p]) { p += 1 }
            scanned = p - input.pos
            if scanned > ResultLimits.maximumTokenBytes { throw tooLong() }
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
        guard integerDigits > 0 else { throw syntax("a number needs digits after '-'") }
        guard integerDigits == 1 || b[leading] != 0x30 else { throw syntax("a number must not have leading zeros") }
        var isInteger = true, hasExponent = false
        if p < e && b[p] == 0x2E {
            p += 1
            isInteger = false
            guard digits() > 0 else { throw syntax("a number needs digits after '.'") }
        }
        if p < e && (b[p] == 0x65 || b[p] == 0x45) {
            p += 1
            isInteger = false
            hasExponent = true
            if p < e && (b[p] == 0x2B || b[p] == 0x2D) { p += 1 }
            guard digits() > 0 else { throw syntax("a number needs digits in its exponent") }
        }
        guard p == e else { throw syntax("malformed number") }
        input.pos = e
        return NumberToken(start: start, count: scanned, isInteger: isInteger, hasExponent: hasExponent)
    }

    private static func continuesNumber(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x2D || c == 0x2B || c == 0x65 || c == 0x45
    }

    /// The token as an `Int`: integer syntax only, within Int64.
    func integer(_ token: NumberToken) throws(JSONFailure) -> Int {
        guard token.isInteger else { throw failure(.schema, "expected an integer, found \(text(token))") }
        let b = input.base
        var p = token.start
        let e = token.start + token.count
        let negative = b[p] == 0x2D
        if negative { p += 1 }
        var magnitude: UInt64 = 0
        while p < e {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt64(b[p] - 0x30))
            guard !o1, !o2 else { throw failure(.schema, "\(text(token)) is out of the integer range") }
            magnitude = plus
            p += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw failure(.schema, "\(text(token)) is out of the integer range") }
            return magnitude == UInt64(Int64.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw failure(.schema, "\(text(token)) is out of the integer range") }
        return Int(magnitude)
    }

    private static let exactPowers: [Double] = (0...22).map { p in (0..<p).reduce(1.0) { acc, _ in acc * 10 } }

    /// The token as a finite `Double`, correctly rounded: exact arithmetic when the digits fit 2⁵³
    /// and the exponent is small (Clinger's fast path), else `strtod`. Infinite results, and
    /// non-zero digits that round to zero, are refused.
    func double(_ token: NumberToken) throws(JSONFailure) -> Double {
        let b = input.base
        var p = token.start
        let e = token.start + token.count
        let negative = b[p] == 0x2D
        if negative { p += 1 }
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
        guard value.isFinite else { throw failure(.schema, "\(text(token)) is too large for a number") }
        guard value != 0 else { throw failure(.schema, "\(text(token)) is too small for a number (it rounds to 0)") }
        return value
    }

    /// Checks that the token is a finite number that does not underflow to zero, as ``double(_:)``
    /// does, without converting it when that is certain: without an exponent and within 300 bytes,
    /// a number is below 10³⁰⁰ and, unless all its digits are 0, above 10⁻³⁰⁰.
    func checkDouble(_ token: NumberToken) throws(JSONFailure) {
        if !token.hasExponent && token.count <= 300 { return }
        _ = try double(token)
    }

    /// The token's text, for messages.
    func text(_ token: NumberToken) -> String {
        String(decoding: UnsafeBufferPointer(start: input.base + token.start, count: Swift.min(token.count, 40)), as: UTF8.self)
    }
}

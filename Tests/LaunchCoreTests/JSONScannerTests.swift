import Testing
import LaunchCore

/// The one JSON tokenizer every reader shares: each rule broken is reported as a typed `JSONRule`
/// at the byte at fault, and the two lenient options change only what they say.
@Suite struct JSONScannerTests {
    /// The rule `text` breaks when its one token is read (`nil` when it reads), and where.
    static func broken(_ text: [UInt8], lenientText: Bool = false, underflowToZero: Bool = false) -> (rule: JSONRule?, offset: Int)? {
        text.withUnsafeBufferPointer { buffer -> (rule: JSONRule?, offset: Int)? in
            let scanner = JSONScanner(input: JSONInput(path: "t", bytes: buffer), lenientText: lenientText, underflowToZero: underflowToZero)
            do throws(JSONFailure) {
                switch try scanner.peek() {
                case UInt8(ascii: "\""): _ = try scanner.string()
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): _ = try scanner.literal()
                default: _ = try scanner.double(try scanner.number())
                }
                return nil
            } catch {
                return (error.rule, error.offset)
            }
        }
    }

    static func broken(_ text: String, lenientText: Bool = false, underflowToZero: Bool = false) -> (rule: JSONRule?, offset: Int)? {
        broken(Array(text.utf8), lenientText: lenientText, underflowToZero: underflowToZero)
    }

    @Test func eachRuleIsTypedAtTheByteAtFault() {
        let cases: [(String, JSONRule, Int)] = [
            ("\"a\u{1}\"", .controlCharacter(1), 2),
            (#""a\x""#, .unknownEscape(UInt8(ascii: "x")), 2),
            (#""\u12"#, .unicodeEscapeDigits(incomplete: true), 3),
            (#""\u12G4""#, .unicodeEscapeDigits(incomplete: false), 5),
            (#""\udc00""#, .loneSurrogate(0xDC00), 1),
            (#""\ud800x""#, .loneSurrogate(0xD800), 1),
            (#""abc"#, .unterminatedString, 0),
            (#""\ud83d\u"#, .unterminatedString, 0),
            ("-", .numberNeedsDigits(after: UInt8(ascii: "-"), at: 1), 0),
            ("1.x", .numberNeedsDigits(after: UInt8(ascii: "."), at: 2), 0),
            ("1e+", .numberNeedsDigits(after: UInt8(ascii: "e"), at: 3), 0),
            ("01", .numberEndsEarly(grammarEnd: 1, leadingZero: true), 0),
            ("1.5.3", .numberEndsEarly(grammarEnd: 3, leadingZero: false), 0),
            ("tru", .unknownLiteral(mismatchAt: 3), 0),
            ("nul!", .unknownLiteral(mismatchAt: 3), 0),
            ("1e999", .numberTooLarge, 5),
            ("1e-400", .numberTooSmall, 6)
        ]
        for (text, rule, offset) in cases {
            let failure = Self.broken(text)
            #expect(failure?.rule == rule, "\(text)")
            #expect(failure?.offset == offset, "\(text)")
        }
    }

    @Test func invalidUTF8IsRefusedWhereItStartsAndACutSequenceLeavesTheStringOpen() {
        #expect(Self.broken([0x22, 0x61, 0xC3, 0x28, 0x22])?.rule == .invalidUTF8)
        #expect(Self.broken([0x22, 0x61, 0xC3, 0x28, 0x22])?.offset == 2)
        #expect(Self.broken([0x22, 0xED, 0xA0, 0x80, 0x22])?.rule == .invalidUTF8)  // An encoded surrogate.
        #expect(Self.broken([0x22, 0x61, 0xE2, 0x82])?.rule == .unterminatedString)
    }

    @Test func lenientTextReadsWhatStrictTextRefuses() {
        for text: [UInt8] in [[0x22, 0xFF, 0x22], Array(#""\udc00""#.utf8), Array(#""\ud800x""#.utf8)] {
            #expect(Self.broken(text) != nil)
            #expect(Self.broken(text, lenientText: true) == nil)
        }
        // Still no raw control characters.
        #expect(Self.broken("\"\u{1}\"", lenientText: true)?.rule == .controlCharacter(1))
        // Lone halves decode as U+FFFD, pairs as their scalar.
        let text = Array(#""\ud800 \ud83d\ude00""#.utf8)
        let decoded = text.withUnsafeBufferPointer { buffer -> String? in
            let scanner = JSONScanner(input: JSONInput(path: "t", bytes: buffer), lenientText: true)
            guard let token = try? scanner.string() else { return nil }
            return scanner.text(token)
        }
        #expect(decoded == "\u{FFFD} 😀")
    }

    @Test func underflowToZeroReadsTinyNumbersAsZero() {
        #expect(Self.broken("1e-400", underflowToZero: true) == nil)
        #expect(Self.broken("1e999", underflowToZero: true)?.rule == .numberTooLarge)
    }

    @Test func tokensPastTheInputsLimitAreRefused() {
        let long: [UInt8] = [0x22] + [UInt8](repeating: UInt8(ascii: "a"), count: 100) + [0x22]
        let failure = long.withUnsafeBufferPointer { buffer -> JSONFailure? in
            let scanner = JSONScanner(input: JSONInput(path: "t", bytes: buffer, maximumTokenBytes: 99))
            do throws(JSONFailure) {
                _ = try scanner.string()
                return nil
            } catch {
                return error
            }
        }
        #expect(failure?.rule == .tokenTooLong)
        #expect(failure?.kind == .limit)
    }
}

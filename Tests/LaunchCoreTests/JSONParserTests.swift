import Testing
import LaunchCore

/// The Foundation-free JSON reader behind the manifest and the settings: exact values, and for
/// every hostile input a failure that says where, never a crash.
@Suite struct JSONParserTests {
    func parse(_ text: String) throws(CoreError) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    /// The parts of a ``CoreError/invalidJSON(offset:line:column:reason:)``.
    struct Failure: Equatable {
        var offset: Int
        var line: Int
        var column: Int
        var reason: String?
    }

    /// The failure for `bytes`, or `nil` when they parse (recorded as an issue when the error is
    /// not about JSON).
    func failure(_ bytes: [UInt8], maximumDepth: Int = JSONNesting.maximumDepth) -> Failure? {
        do {
            _ = try JSONParser.parse(bytes, maximumDepth: maximumDepth)
            return nil
        } catch {
            guard case .invalidJSON(let offset, let line, let column, let reason) = error else {
                Issue.record("not a JSON error: \(error)")
                return nil
            }
            return Failure(offset: offset, line: line, column: column, reason: reason)
        }
    }

    func failure(_ text: String) -> Failure? { failure(Array(text.utf8)) }

    // MARK: Values

    @Test func everyKindOfValueIsReadExactly() throws {
        let value = try parse(#" {"s": "x", "t": true, "f": false, "n": null, "i": -12, "d": 2.5e1, "a": [1, [], {}], "o": {"k": "v"}} "#)
        let object = try #require(value.object)
        #expect(object.keys == ["s", "t", "f", "n", "i", "d", "a", "o"])
        #expect(object["s"] == .string("x"))
        #expect(object["t"] == .bool(true))
        #expect(object["f"] == .bool(false))
        #expect(object["n"] == .null)
        #expect(object["i"] == .number(JSONValue.Number(text: "-12", value: -12)))
        #expect(object["d"] == .number(JSONValue.Number(text: "2.5e1", value: 25)))
        guard case .number(let d) = object["d"] else { Issue.record("not a number"); return }
        #expect(d.text == "2.5e1")
        #expect(object["a"] == .array([.number(JSONValue.Number(1)), .array([]), .object(JSONValue.Object())]))
        #expect(object["o"]?.object?["k"] == .string("v"))
        #expect(object["missing"] == nil)
    }

    @Test func keysKeepTheirOrder() throws {
        let keys = try #require(try parse(#"{"zeta": 1, "alpha": 2, "mid": 3}"#).object).keys
        #expect(keys == ["zeta", "alpha", "mid"])
    }

    @Test func topLevelScalarsAndSurroundingWhitespaceAreAccepted() throws {
        #expect(try parse(" \t\r\n 7 \n") == .number(JSONValue.Number(7)))
        #expect(try parse(#""only""#) == .string("only"))
        #expect(try parse("null") == .null)
    }

    @Test func wholeNumbersAreExactUpToTwoToThe53() throws {
        for n in [0, 1, -1, 999_999_999_999_999, 1 << 52, 1 << 53, -(1 << 53)] {
            #expect(try parse(String(n)).number == Double(n), "\(n)")
            #expect(Int(try #require(try parse(String(n)).number)) == n)
        }
        // Past 2^53 the value rounds, but the text stays as written.
        guard case .number(let big) = try parse("9007199254740993") else { Issue.record("not a number"); return }
        #expect(big.text == "9007199254740993")
        #expect(big.value == 9_007_199_254_740_992)
        #expect(try parse("99999999999999999999").number == 1e20)
    }

    @Test func numbersFollowJSONsGrammar() throws {
        #expect(try parse("-0").number == 0)
        guard case .number(let zero) = try parse("-0") else { Issue.record("not a number"); return }
        #expect(zero.text == "-0")
        #expect(try parse("0.5").number == 0.5)
        #expect(try parse("1E+2").number == 100)
        #expect(try parse("1e-2").number == 0.01)
        #expect(try parse("1e-400").number == 0)  // Too small to tell from zero: zero, not an error.
        for bad in ["01", "-", "+1", ".5", "1.", "1e", "1e+", "--1", "0x10", "NaN", "Infinity", "-Infinity", "nan"] {
            #expect(failure(bad) != nil, "\(bad)")
        }
        #expect(failure("01") == Failure(offset: 0, line: 1, column: 1, reason: "a number may not start with 0"))
        #expect(failure("[1.]") == Failure(offset: 3, line: 1, column: 4, reason: "unexpected ']'"))
        #expect(failure("[NaN]") == Failure(offset: 1, line: 1, column: 2, reason: "unexpected 'N'"))
    }

    @Test func numbersPastDoubleAreRefusedWhereTheyStart() {
        #expect(failure(#"{"a": 1e999}"#) == Failure(offset: 6, line: 1, column: 7, reason: "the number 1e999 is too large"))
        #expect(failure("[\n -1e400]") == Failure(offset: 3, line: 2, column: 2, reason: "the number -1e400 is too large"))
        let digits = String(repeating: "9", count: 400)
        let huge = failure(digits)
        #expect(huge?.offset == 0)
        #expect(huge?.reason == "the number \(String(repeating: "9", count: 40))… is too large")
    }

    // MARK: Strings

    @Test func escapesAndSurrogatePairsAreResolved() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u0041\u00e9\u20AC\ud83d\ude00""#) == .string("Aé€😀"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse("\"é😀 raw\"") == .string("é😀 raw"))
        #expect(try parse(#""mixed é \n 😀""#) == .string("mixed é \n 😀"))
    }

    @Test func loneSurrogatesAreRefused() {
        #expect(
            failure(#"["\ud800"]"#) == Failure(offset: 2, line: 1, column: 3, reason: #"\uD800 is half of a surrogate pair, without the other half"#)
        )
        #expect(
            failure(#"["x\udc00"]"#)
                == Failure(offset: 3, line: 1, column: 4, reason: #"\uDC00 is half of a surrogate pair, without the other half"#))
        #expect(failure(#""\ud800\u0041""#)?.reason == #"\uD800 is half of a surrogate pair, without the other half"#)
        #expect(failure(#""\ud800x""#)?.offset == 1)
        #expect(failure(#""\ud83d\ud83d""#)?.offset == 1)
    }

    @Test func badEscapesAreRefused() {
        #expect(failure(#""\x""#) == Failure(offset: 1, line: 1, column: 2, reason: #"\x is not a JSON escape"#))
        #expect(failure(#""\u12G4""#) == Failure(offset: 5, line: 1, column: 6, reason: #"expected four hexadecimal digits after \u"#))
        #expect(failure("\"\\\u{1}\"")?.reason == "a backslash is not a JSON escape")
    }

    @Test func controlCharactersAndNULBytesMustBeEscaped() {
        #expect(
            failure("\"a\tb\"") == Failure(offset: 2, line: 1, column: 3, reason: "control character U+0009 in a string (write it as an escape)"))
        #expect(
            failure("[\"\\n\n\"]") == Failure(offset: 4, line: 1, column: 5, reason: "control character U+000A in a string (write it as an escape)"))
        #expect(
            failure(Array(#"{"a": "x"#.utf8) + [0] + Array(#""}"#.utf8)) == Failure(offset: 8, line: 1, column: 9, reason: "a NUL byte in a string"))
        #expect(failure(Array("{}".utf8) + [0]) == Failure(offset: 2, line: 1, column: 3, reason: "text after the end of the JSON value"))
        #expect(failure([0]) == Failure(offset: 0, line: 1, column: 1, reason: "a NUL byte"))
        #expect(failure(Array("[1,".utf8) + [0] + Array("]".utf8)) == Failure(offset: 3, line: 1, column: 4, reason: "a NUL byte"))
    }

    @Test(arguments: [
        [0xFF] as [UInt8],  // never UTF-8
        [0xC0, 0xAF],  // overlong "/"
        [0xE0, 0x80, 0xAF],  // overlong
        [0xED, 0xA0, 0x80],  // an encoded surrogate (U+D800)
        [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        [0xC3],  // a lead byte, then the closing quote
        [0x80],  // a continuation byte alone
        [0xE2, 0x82]  // a sequence cut short
    ])
    func invalidUTF8InAStringIsRefusedWhereItStarts(sequence: [UInt8]) {
        let bytes = Array("{\"k\": \"ab".utf8) + sequence + Array("\"}".utf8)
        #expect(failure(bytes) == Failure(offset: 9, line: 1, column: 10, reason: "invalid UTF-8"))
    }

    @Test func invalidUTF8OutsideAStringIsAnUnexpectedCharacter() {
        #expect(failure([UInt8(ascii: "["), 0xFF, UInt8(ascii: "]")]) == Failure(offset: 1, line: 1, column: 2, reason: "unexpected byte 0xff"))
    }

    // MARK: Structure

    /// As Foundation's JSONSerialization read them (the manifests and settings written for it keep
    /// loading): the last value wins, the key keeps its first place.
    @Test func aRepeatedKeyKeepsItsFirstPlaceAndItsLastValue() throws {
        let object = try #require(try parse("{\"a\": 1, \"b\": 2,\n \"a\": \"x\"}").object)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .string("x"))
        #expect(object.count == 2)
        let many = "{" + (0..<10_000).map { _ in #""k": 1"# }.joined(separator: ", ") + #", "k": 2}"#
        #expect(try parse(many).object?["k"] == .number(JSONValue.Number(2)))
    }

    @Test func objectsAreEqualWhateverTheirKeyOrder() throws {
        #expect(try parse(#"{"a": 1, "b": [true]}"#) == (try parse(#"{"b": [true], "a": 1}"#)))
        #expect(try parse(#"{"a": 1, "b": 2}"#) != (try parse(#"{"a": 1}"#)))
        #expect(try parse(#"{"a": 1}"#) == (try parse(#"{"a": 1.0}"#)))
        #expect(try parse(#"{"a": 1}"#) != (try parse(#"{"a": "1"}"#)))
        var object = JSONValue.Object()
        object["x"] = .null
        object["y"] = .bool(true)
        object["x"] = nil
        #expect(object.keys == ["y"])
        #expect(object == (try parse(#"{"y": true}"#).object))
    }

    @Test func syntaxErrorsSayLineAndColumnInCharacters() {
        // The manifest loader's wording depends on these positions (ManifestLoaderTests).
        #expect(failure("{\n  \"theme\": \"t\",\n  \"screen\": {,}\n}") == Failure(offset: 31, line: 3, column: 14, reason: "unexpected ','"))
        #expect(failure("{\"é😀\": x}") == Failure(offset: 11, line: 1, column: 8, reason: "unexpected 'x'"))
        #expect(failure(#"{"a": 1,}"#) == Failure(offset: 8, line: 1, column: 9, reason: "unexpected '}'"))
        #expect(failure(#"[1 2]"#) == Failure(offset: 3, line: 1, column: 4, reason: "unexpected '2'"))
        #expect(failure(#"{"a" 1}"#) == Failure(offset: 5, line: 1, column: 6, reason: "unexpected '1'"))
        #expect(failure(#"{1: 2}"#) == Failure(offset: 1, line: 1, column: 2, reason: "unexpected '1'"))
        #expect(failure(#"[tru]"#) == Failure(offset: 4, line: 1, column: 5, reason: "unexpected ']'"))
        #expect(failure("// c\n{}") == Failure(offset: 0, line: 1, column: 1, reason: "unexpected '/'"))
        #expect(failure(#"{"a": 1} x"#) == Failure(offset: 9, line: 1, column: 10, reason: "text after the end of the JSON value"))
        #expect(failure("{}{}") == Failure(offset: 2, line: 1, column: 3, reason: "text after the end of the JSON value"))
    }

    @Test func emptyAndTruncatedInputEndsTooSoon() {
        for text in ["", "   \n", "{", "[1,", #"{"a""#, #"{"a":"#, #""abc"#, #""\"#, #""\u12"#, #""\ud83d"#, #""\ud83d\"#, "tr", "-", "1e", "1."] {
            #expect(failure(text)?.reason == "unexpected end of input", "\(text)")
            #expect(failure(text)?.offset == text.utf8.count, "\(text)")
        }
        #expect(failure("{\n") == Failure(offset: 2, line: 2, column: 1, reason: "unexpected end of input"))
        #expect(failure(Array("\"é".utf8).dropLast().map { $0 })?.reason == "unexpected end of input")
    }

    @Test func aByteOrderMarkIsSkippedAndNotCountedAsAColumn() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(
            try JSONParser.parse(bom + Array(#"{"a": 1}"#.utf8))
                == .object(
                    {
                        var o = JSONValue.Object(); o["a"] = .number(JSONValue.Number(1)); return o
                    }()))
        #expect(failure(bom + Array("{,}".utf8)) == Failure(offset: 4, line: 1, column: 2, reason: "unexpected ','"))
        // Only at the very start: a second one is an unexpected character.
        #expect(failure(bom + bom + Array("{}".utf8)) == Failure(offset: 3, line: 1, column: 1, reason: "unexpected byte 0xef"))
    }

    @Test func nestingPastTheLimitIsRefusedAtItsBracket() throws {
        let limit = JSONNesting.maximumDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(failure(atLimit) == nil)
        let past = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(failure(past) == Failure(offset: limit, line: 1, column: limit + 1, reason: "nested more than \(limit) levels deep"))
        // A hundred thousand levels: refused at the limit, without recursing that deep.
        let deep = Array(String(repeating: #"{"a":["#, count: 100_000).utf8)
        #expect(failure(deep)?.reason == "nested more than \(limit) levels deep")
        #expect(failure(Array("[[[]]]".utf8), maximumDepth: 2)?.offset == 2)
    }

    // MARK: Hostile input, byte by byte

    /// Every prefix of a document that uses each construct fails with a position inside the input
    /// (or parses, for a prefix that is itself a document), and never crashes.
    @Test func everyTruncationFailsCleanly() throws {
        let document =
            "\u{FEFF}{\"name\": \"Calc é😀\", \"n\": [-0, 1.5e3, 9007199254740993, true, false, null],\n \"esc\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\", \"o\": {\"deep\": [[{}]]}}"
        let bytes = Array(document.utf8)
        #expect(failure(bytes) == nil)
        for end in 0..<bytes.count {
            let prefix = Array(bytes[..<end])
            guard let error = failure(prefix) else { continue }
            #expect(error.offset <= end, "\(end)")
            #expect(error.line >= 1 && error.column >= 1)
        }
        // Every prefix short of the closing brace is incomplete.
        #expect(failure(Array(bytes.dropLast()))?.reason == "unexpected end of input")
    }

    /// Each byte of a document replaced by each troublesome byte: a value or a failure inside the input.
    @Test func everyBytePositionSurvivesEveryHostileByte() {
        let bytes = Array(#"{"a": [1, "b\u00e9", {"c": null}], "d": -2.5e-3}"#.utf8)
        for position in bytes.indices {
            for replacement: UInt8 in [0, 0x0A, 0x22, 0x5C, 0x7B, 0x5B, 0x7D, 0x5D, 0x2C, 0x3A, 0x80, 0xC3, 0xED, 0xFF] {
                var mutated = bytes
                mutated[position] = replacement
                if let error = failure(mutated) { #expect(error.offset <= mutated.count) }
            }
        }
    }

    @Test func failuresReadAsTheLoadersWordThem() {
        let plain = CoreError.invalidJSON(offset: 30, line: 3, column: 14, reason: nil)
        #expect(plain.position == " at line 3, column 14")
        #expect("\(plain)" == "invalid JSON at line 3, column 14")
        let reasoned = CoreError.invalidJSON(offset: 0, line: 1, column: 1, reason: "unexpected end of input")
        #expect("\(reasoned)" == "invalid JSON at line 1, column 1: unexpected end of input")
    }

    // MARK: Writing

    @Test func theWriterSortsKeysKeepsNumbersAsWrittenAndReadsBack() throws {
        let value = try parse(#"{"b": [1.50, "x/\"y\"\n", null, true, {}, []], "a": {"z": -0, "c": 1e20}}"#)
        let text = JSONWriter.pretty(value)
        #expect(
            text == """
                {
                  "a": {
                    "c": 1e20,
                    "z": -0
                  },
                  "b": [
                    1.50,
                    "x/\\"y\\"\\n",
                    null,
                    true,
                    {},
                    []
                  ]
                }

                """)
        let again = try parse(text)
        #expect(again.object?["a"] == value.object?["a"])
        #expect(again.object?["b"] == value.object?["b"])
        #expect(JSONWriter.pretty(again) == text)
    }
}

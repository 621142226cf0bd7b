import Testing
@testable import LaunchTraces

/// The bounded JSON reader the trace readers share: strict grammar, positions, limits.
@Suite struct TraceJSONTests {
    static func skip(_ text: String) -> TraceJSON.Failure? {
        var json = TraceJSON(Array(text.utf8))
        do {
            try json.skipValue()
            try json.expectEnd()
            return nil
        } catch {
            return error
        }
    }

    @Test func validValuesAreSkippedWhole() {
        for text in [
            "0", "-0", "1.5e-3", "-12.25E+2", "\"a\\u00e9\\n\"", "true", "false", "null", "[]", "{}",
            " [1, [2, [3, {\"a\": [true, null]}]], \"x\"] ", "{\"a\":{\"b\":{\"c\":[]}},\"d\":\"}\"}"
        ] {
            #expect(Self.skip(text) == nil, "\(text)")
        }
    }

    @Test func invalidValuesAreRefusedWhereTheyGoWrong() {
        let cases: [(String, Int, String)] = [  // text, offset, reason
            ("1.", 0, "a number needs digits after its '.'"),
            (".5", 0, "unexpected '.', expected a value"),
            ("-", 0, "a number needs a digit after '-'"),
            ("1e", 0, "a number needs digits in its exponent"),
            ("+1", 0, "unexpected '+', expected a value"),
            ("01", 1, "unexpected '1', expected the end of the value"),
            ("tru", 0, "unexpected 't', expected a value"),
            ("[1,]", 3, "a trailing comma before ']'"),
            ("[,1]", 1, "unexpected ',', expected a value"),
            ("[1 2]", 3, "unexpected '2', expected ',' or ']'"),
            ("{\"a\" 1}", 5, "unexpected '1', expected ':' after a key"),
            ("{1:2}", 1, "unexpected '1', expected a key in double quotes"),
            ("\"\\u12\"", 3, "an incomplete \\u escape"),
            ("\"\\u12G4\"", 5, "a \\u escape needs four hexadecimal digits"),
            ("[", 1, "unexpected end of input, expected a value"),
            ("\u{7F}", 0, "unexpected byte 0x7F, expected a value")
        ]
        for (text, offset, reason) in cases {
            let failure = Self.skip(text)
            #expect(failure == TraceJSON.Failure(offset: offset, reason: reason), "\(text): \(String(describing: failure))")
        }
    }

    @Test func nestingPastTheLimitIsRefusedWithoutRecursion() {
        let limit = TraceLimits.jsonDepth
        #expect(Self.skip(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) == nil)
        let deep = String(repeating: "[", count: 100_000)
        #expect(Self.skip(deep) == TraceJSON.Failure(offset: limit, reason: "objects and arrays nested more than 64 deep (the limit)"))
    }

    @Test func stringsAreDecoded() throws {
        var json = TraceJSON(Array("\"tab\\t quote\\\" \\ud83d\\ude80 lone \\udc00 raw é\"".utf8))
        #expect(try json.readString() == "tab\t quote\" \u{1F680} lone \u{FFFD} raw é")
    }

    @Test func integersAreRangeChecked() throws {
        var json = TraceJSON(Array("[7, 7.5, 1e300]".utf8))
        try json.openArray()
        #expect(try json.nextElement())
        #expect(try json.readInteger("n", in: 0...10) == 7)
        #expect(try json.nextElement())
        #expect(throws: TraceJSON.Failure(offset: 4, reason: "n must be a whole number from 0 to 10, not 7.5")) { try json.readInteger("n", in: 0...10) }
    }

    @Test func positionsAreLinesAndByteColumns() {
        let bytes = Array("ab\ncdé\nf".utf8)
        #expect(TraceJSON.position(of: 0, in: bytes) == (1, 1))
        #expect(TraceJSON.position(of: 4, in: bytes) == (2, 2))
        #expect(TraceJSON.position(of: 8, in: bytes) == (3, 1))
    }
}

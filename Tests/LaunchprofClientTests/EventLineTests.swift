@testable import LaunchprofClient
import Testing

@Suite struct EventLineTests {
    /// The line `body` builds, as text.
    func line(_ body: (inout EventLine) -> Void) -> [UInt8] {
        EventLine.withLine { line in
            body(&line)
            return Array(line.bytes)
        }
    }

    @Test func numbersAreWrittenInDecimal() {
        #expect(line { $0.append(UInt64(0)) } == Array("0".utf8))
        #expect(line { $0.append(UInt64.max) } == Array("18446744073709551615".utf8))
        #expect(line { $0.append(Int.min) } == Array("-9223372036854775808".utf8))
        #expect(
            line {
                $0.append(-19); $0.append(" "); $0.append(1_000_000)
            } == Array("-19 1000000".utf8))
    }

    @Test func namesAreEscapedByScalar() {
        #expect(line { $0.appendName("a\\b\nc\rd\te") } == Array(#"a\\b\nc\rd\te"#.utf8))
        // CR LF is one Swift character; a backslash with a combining accent too: both escape by scalar.
        #expect(line { $0.appendName("x\r\ny") } == Array(#"x\r\ny"#.utf8))
        #expect(line { $0.appendName("\\\u{301}") } == Array("\\\\\u{301}".utf8))
        #expect(line { $0.appendName("") } == Array("(unnamed)".utf8))
    }

    /// By index: the names themselves would flood the test log.
    @Test(arguments: HostileNames.cases.indices.filter { !HostileNames.cases[$0].name.isEmpty })
    func longNamesAreCutWholeToTheLimit(index: Int) {
        let name = HostileNames.cases[index].name
        let bytes = line { $0.appendName(name) }
        #expect(bytes.count <= EventLine.maximumNameLength)
        let escapedLength = name.unicodeScalars.reduce(0) { $0 + ("\\\n\r\t".unicodeScalars.contains($1) ? 2 : String($1).utf8.count) }
        if escapedLength <= EventLine.maximumNameLength {
            #expect(bytes.count == escapedLength, "a name that fits is not cut")
        } else {
            #expect(bytes.count > EventLine.maximumNameLength - 4, "cut at most one character or escape short")
        }
        #expect(String(validating: bytes, as: UTF8.self) != nil, "never inside a UTF-8 sequence")
        let trailingBackslashes = bytes.reversed().prefix { $0 == UInt8(ascii: "\\") }.count
        #expect(trailingBackslashes % 2 == 0, "never inside an escape")
    }

    @Test func theLongestLineFitsInOneAtomicWrite() {
        let bytes = line { line in
            line.append("begin ")
            line.append(UInt64.max)
            line.append(" ")
            line.append(Reporter.threadLimit - 1)
            line.append(" decode ")
            line.appendName(String(repeating: "\u{1F680}", count: 5000))
            line.appendByte(UInt8(ascii: "\n"))
        }
        #expect(bytes.count <= EventLine.maximumLength && bytes.count < 4096)
    }
}

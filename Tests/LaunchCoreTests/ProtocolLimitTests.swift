import Testing
@testable import LaunchCore

/// The parser's own limits (phases and nesting per run) and exact round trips of escaped names.
@Suite struct ProtocolLimitTests {
    func parser() throws -> ProtocolParser {
        var parser = ProtocolParser(spawnReading: 0)
        try parser.consume("launchprof 1")
        return parser
    }

    @Test func nestingPastTheResultDepthLimitIsRefused() throws {
        var parser = try parser()
        for _ in 0..<ProtocolParser.maximumDepth { try parser.consume("begin 1 0 - p") }
        #expect(
            throws: CoreError.protocolLine(
                line: ProtocolParser.maximumDepth + 2,
                reason: "phases nested more than 256 deep on thread 0 (the limit of the protocol)")
        ) {
            try parser.consume("begin 1 0 - p")
        }
        // Another thread has its own stack.
        try parser.consume("begin 1 1 - q")
    }

    @Test func phasesPastTheRunLimitAreRefused() throws {
        var parser = try parser()
        for _ in 0..<ProtocolParser.maximumPhases {
            try parser.consume("begin 1 0 - p")
            try parser.consume("end 2 0 p")
        }
        #expect(throws: CoreError.self) { try parser.consume("begin 1 0 - p") }
        #expect(parser.run(index: 1, pid: nil).phases.count == ProtocolParser.maximumPhases)
    }

    @Test(arguments: [
        "line\nend 5 0 forged", "crlf\r\nreturn", "back\\slash\\n", "tab\there",
        "combining \\\u{301} and \n\u{301}", "<script> | ` %0A ::", "\u{FFFE}\u{FFFF}\u{1}\u{1B}"
    ])
    func escapedNamesRoundTripOnOneLine(_ name: String) throws {
        let escaped = ProtocolWriter.escape(name)
        #expect(!escaped.unicodeScalars.contains("\n") && !escaped.unicodeScalars.contains("\r"))
        var parser = try parser()
        for line in [
            "begin 1 0 - \(escaped)", "end 2 0 \(escaped)", "mark 3 0 \(escaped)", "count 1 \(escaped)",
            "deferred \(escaped)", "done 4"
        ] {
            try parser.consume(Substring(line))
        }
        let run = parser.run(index: 1, pid: nil)
        #expect(run.phases.map(\.name) == [name])
        #expect(run.marks.map(\.name) == [name])
        #expect(run.counters.map(\.name) == [name])
        #expect(run.deferred == [name])
    }
}

@Suite struct ProtocolWriterArithmeticTests {
    @Test func nanosecondConversionsNeverTrap() {
        #expect(ProtocolWriter.nanoseconds(.nan) == 0)
        #expect(ProtocolWriter.nanoseconds(-1) == 0)
        #expect(ProtocolWriter.nanoseconds(.infinity) == .max)
        #expect(ProtocolWriter.nanoseconds(1e300) == .max)
        #expect(ProtocolWriter.nanoseconds(1.5) == 1_500_000_000)
    }
}

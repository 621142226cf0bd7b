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
        ("begin 1 0 - ", "phase"), ("mark 1 0 ", "mark"), ("count 1 ", "counter"), ("deferred ", "deferred phase")
    ])
    func namesPastTheByteLimitAreRefusedWithoutEchoingThemWhole(_ prefix: String, _ what: String) throws {
        var parser = try parser()
        let longest = String(repeating: "é", count: ProtocolParser.maximumNameBytes / 2)
        try parser.consume(Substring(prefix + longest))
        let tooLong = String(repeating: "x", count: 100_000) + "\\nquit: forged"
        do {
            try parser.consume(Substring(prefix + tooLong))
            Issue.record("a \(what) name of 100 KB was accepted")
        } catch {
            guard case .protocolLine(3, let reason) = error else { throw error }
            #expect(reason.hasPrefix("a \(what) name of 100013 bytes ('xxx"), "\(reason)")
            #expect(reason.hasSuffix("…'), longer than the limit of \(ProtocolParser.maximumNameBytes) (the limit of the protocol)"), "\(reason)")
            #expect(reason.utf8.count < 200 && !reason.contains("\n"))
        }
    }

    @Test func marksCountersDeferredAndTapsPastTheirLimitAreRefused() throws {
        let limit = ProtocolParser.maximumEntries
        for (line, what) in [
            ({ (i: Int) in "mark 1 0 m\(i)" }, "marks"), ({ (i: Int) in "count 1 c\(i)" }, "counters"),
            ({ (i: Int) in "deferred d\(i)" }, "deferred phases"), ({ (i: Int) in "tap 1 k" }, "tap lines")
        ] {
            var parser = try parser()
            for i in 0..<limit { try parser.consume(Substring(line(i))) }
            #expect(throws: CoreError.protocolLine(line: limit + 2, reason: "more than \(limit) \(what) in one run (the limit of the protocol)")) {
                try parser.consume(Substring(line(limit)))
            }
        }
        // The same counter counted again is no new entry.
        var parser = try parser()
        for _ in 0...limit { try parser.consume("count 1 same") }
        #expect(parser.run(index: 1, pid: nil).counters == [CounterRecord(name: "same", value: limit + 1)])
    }

    @Test func phasePathsPastTheirTotalAreRefused() throws {
        // Chains 256 deep of 1 KiB names: each phase's path holds its parents' names, 33 MB a chain.
        var parser = try parser()
        let names = (0..<ProtocolParser.maximumDepth).map { String(repeating: "\($0 % 10)", count: 1024) }
        var refused: String?
        chains: for thread in 0..<4 {
            for name in names {
                do { try parser.consume(Substring("begin 1 \(thread) - \(name)")) } catch {
                    guard case .protocolLine(_, let reason) = error else { throw error }
                    refused = reason
                    break chains
                }
            }
        }
        #expect(refused == "more than 64 MiB of phase paths (names with their parents') in one run (the limit of the protocol)")
        let phases = parser.run(index: 1, pid: nil).phases
        // One whole chain fits (33.7 MB of paths), the second is cut where it passed the 64 MiB.
        #expect(phases.count > names.count && phases.count < 2 * names.count)
    }

    @Test func userTextInParserErrorsIsQuotedOnOneLine() throws {
        var parser = try parser()
        try parser.consume("begin 1 0 - open\\nquit: now")
        for line in ["end 2 0 other\\nquit: forged", "begin 1 0 \u{1B}[31m x", "nonsense\rquit: x"] {
            #expect {
                try parser.consume(Substring(line))
            } throws: { error in
                guard case CoreError.protocolLine(_, let reason) = error else { return false }
                return !reason.unicodeScalars.contains { $0.value < 0x20 } && reason.contains("\\")
            }
        }
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

import Testing
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
import LaunchStats
#if canImport(Glibc)
import Glibc
#endif

/// The table reader's plain-phase scanner against its general parser and the Codable reader: the
/// same tables from every spelling of a phase, the same refusals with the same words and places.
@Suite struct PlainPhaseScannerTests {
    static func good() throws -> String {
        String(decoding: try ResultFile.encode(ResultTableReaderTests.counted(runs: 3)), as: UTF8.self)
    }

    /// Spellings of the same kind of result: numbers with exponents and many digits, other white
    /// space, nulls, unknown keys, escapes and non-ASCII names (some taken by the plain-phase scanner, the
    /// rest left to the general parser).
    static func variants() throws -> [(String, String)] {
        let good = try good()
        func with(_ pairs: [(String, String)]) -> String {
            pairs.reduce(good) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
        }
        return [
            ("as written", good),
            (
                "exponents",
                with([
                    ("\"duration\" : 0.89", "\"duration\" : 8.9e-1"), ("\"duration\" : 0.91", "\"duration\" : 91E-2"),
                    ("\"duration\" : 0.5", "\"duration\" : 0.05e+1")
                ])
            ),
            ("start with an exponent", with([("\"start\" : 0.89", "\"start\" : 8.9e-1"), ("\"start\" : 1.8", "\"start\" : 1.7e308")])),
            (
                "more digits than a double keeps",
                with([
                    ("\"duration\" : 0.89", "\"duration\" : 0.890000000000000000000000001"),
                    ("\"duration\" : 0.91", "\"duration\" : 0.91000000000000003")
                ])
            ),
            ("zeros", with([("\"duration\" : 0.5", "\"duration\" : -0.0"), ("\"duration\" : 0.45", "\"duration\" : 0.0e1")])),
            ("CRLF and tabs", good.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "  ", with: "\t")),
            (
                "no white space",
                good.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " : ", with: ":")
                    .replacingOccurrences(of: "  ", with: "")
            ),
            ("nulls", with([("\"kind\" : \"io\"", "\"kind\" : null, \"hostDuration\" : null, \"background\" : null, \"residentBytes\" : null")])),
            (
                "optional fields",
                with([
                    (
                        "\"kind\" : \"draw\"",
                        "\"kind\" : \"draw\", \"hostDuration\" : 0.25, \"background\" : true, \"residentBytes\" : 4096, \"residentGrowth\" : -12"
                    )
                ])
            ),
            ("an unknown key", with([("\"kind\" : \"io\"", "\"kind\" : \"io\", \"extra\" : {\"a\" : [1, 2.5e3, null]}")])),
            (
                "escaped and non-ASCII names",
                with([("\"name\" : \"Init\"", "\"name\" : \"In\\u0069t \\\"x\\\"\""), ("\"name\" : \"drawing\"", "\"name\" : \"dr\u{e9}wing\"")])
            )
        ]
    }

    @Test(arguments: try variants())
    func plainScannerAndGeneralParserAgree(_ variant: (String, String)) throws {
        let bytes = Array(variant.1.utf8)
        let fast = try ResultTableReader.tabulate(bytes, path: "v.json", plainScanner: true)
        let general = try ResultTableReader.tabulate(bytes, path: "v.json", plainScanner: false)
        #expect(fast == general, "\(variant.0)")
        #expect(fast == TabulatedResult(try ResultFile.decode(bytes, path: "v.json")), "\(variant.0)")
        #expect(fast.table.runCount == 3)
    }

    @Test func numbersConvertExactlyAsTheCodableReader() throws {
        // Durations in the forms encoders write, each checked against Swift's own parsing.
        let spellings = [
            "1e-05", "1.2e-05", "0.000123456", "0.0199999", "12345.678901234", "4.9406564584124654e-300", "0.1", "3", "1E2",
            "0.30000000000000004", "9007199254740993", "123456789012345678901234567890e-30"
        ]
        let good = try Self.good()
        for spelling in spellings {
            let text = good.replacingOccurrences(of: "\"duration\" : 0.89,", with: "\"duration\" : \(spelling),")
            let table = try ResultTableReader.tabulate(Array(text.utf8), path: "n.json").table
            #expect(table.rows[0].durations[0] == Double(spelling), "\(spelling)")
        }
    }

    /// Every refusal reads the same whether the plain-phase scanner saw the phase first or not.
    @Test func refusalsAreWordedAndPlacedAlike() throws {
        let good = try Self.good()
        let mutations: [(String, String)] = [
            ("\"duration\" : 0.89", "\"duration\" : -0.89"),
            ("\"duration\" : 0.89", "\"duration\" : 1e999"),
            ("\"duration\" : 0.89", "\"duration\" : 1e-999"),
            ("\"start\" : 0.89", "\"start\" : 1e-999"),
            ("\"duration\" : 0.89", "\"duration\" : 0.8.9"),
            ("\"duration\" : 0.89", "\"duration\" : 089"),
            ("\"duration\" : 0.89", "\"duration\" : \"slow\""),
            ("\"depth\" : 0", "\"depth\" : 1.5"),
            ("\"depth\" : 0", "\"depth\" : 99999999999999999999"),
            ("\"depth\" : 1", "\"depth\" : 100000000"),
            ("\"parent\" : 1", "\"parent\" : 5"),
            ("\"kind\" : \"cpu\"", "\"kind\" : \"gpu\""),
            ("\"afterLaunch\" : false,", "\"afterLaunch\" : fals,"),
            ("\"afterLaunch\" : false,", "\"afterLaunch\" : false, \"afterLaunch\" : true,"),
            ("\"afterLaunch\" : false,", ""),
            ("\"afterLaunch\" : false,", "\"afterLaunch\" : false,,"),
            ("\"name\" : \"Init\"", "\"name\" : \"In\u{01}it\""),
            ("\"instructions\" : 1000,", "\"instructions\" : -1000,"),
            ("\"thread\" : 0", "\"thread\" : -1"),
            ("\"thread\" : 0", "\"thread\" : null")
        ]
        for (old, new) in mutations {
            #expect(good.contains(old), "\(old)")
            let bytes = Array(good.replacingOccurrences(of: old, with: new).utf8)
            func message(_ plainScanner: Bool) -> String? {
                do {
                    _ = try ResultTableReader.tabulate(bytes, path: "bad.json", plainScanner: plainScanner)
                    return nil
                } catch {
                    return error.description
                }
            }
            let fast = message(true), general = message(false)
            #expect(fast != nil, "\(new) was accepted")
            #expect(fast == general, "\(new)")
            #expect(throws: ResultError.self, "\(new)") { try ResultFile.decode(bytes, path: "bad.json") }
        }
    }

    @Test func aLateErrorIsPlacedOnItsLine() throws {
        // Many phases read by the plain-phase scanner, then a mistake: its line and column are the general parser's.
        let good = String(decoding: try ResultFile.encode(ResultTableReaderTests.counted(runs: 300)), as: UTF8.self)
        var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let target = lines.indices.last(where: { lines[$0].contains("\"duration\" : ") }) else {
            Issue.record("no duration")
            return
        }
        lines[target] = lines[target].replacingOccurrences(of: "\"duration\" : ", with: "\"duration\" : -")
        let bytes = Array(lines.joined(separator: "\n").utf8)
        var messages: [String] = []
        for plainScanner in [true, false] {
            do {
                _ = try ResultTableReader.tabulate(bytes, path: "late.json", plainScanner: plainScanner)
                Issue.record("accepted")
            } catch {
                messages.append(error.description)
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1])
        #expect(messages.first?.contains("runs[299].phases[") == true)
        // The object's end, a line or two after the mistake.
        let line = target + 1
        #expect(messages.first.map { m in (line...line + 10).contains { m.contains("line \($0),") } } == true, "\(messages)")
    }

    @Test func readingAllAtOnceEqualsReadingEachInTurn() throws {
        let directory = TemporaryDirectory.uniquePath("read-all")
        mkdir(directory, 0o700)
        let a = directory + "/a.json", b = directory + "/b.json", missing = directory + "/missing.json"
        defer { unlink(a); unlink(b); rmdir(directory) }
        try ResultFile.write(ResultTableReaderTests.counted(runs: 400), to: a)
        try ResultFile.write(SampleResult.classic(runs: 7), to: b)
        let together = ResultTableReader.read(all: [a, b, missing])
        #expect(together.count == 3)
        #expect(try together[0].get() == ResultTableReader.read(a))
        #expect(try together[1].get() == ResultTableReader.read(b))
        #expect(try together[1].get().table.runCount == 7)
        switch together[2] {
        case .success: Issue.record("a missing file was read")
        case .failure(let error): #expect(error == .cannotRead(path: missing, reason: "No such file or directory"))
        }
        #expect(ResultTableReader.read(all: []).isEmpty)
    }
}

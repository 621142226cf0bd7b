import Testing
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ResultFileTests {
    @Test func roundTripKeepsEveryValue() throws {
        let original = SampleResult.classic(runs: 2)
        let decoded = try ResultFile.decode(try ResultFile.encode(original), path: "mem.json")
        #expect(decoded == original)
        #expect(decoded.runs[1].phases[2].parent == 1)
        #expect(decoded.runs[0].counters[1].value == 1_234_567)
    }

    @Test func aRunsClockRoundTripsAndAnImplausibleOneIsRefusedWithItsPlace() throws {
        var original = SampleResult.classic(runs: 2)
        original.runs[1].clockGigahertz = 3.21
        let bytes = try ResultFile.encode(original)
        let decoded = try ResultFile.decode(bytes, path: "mem.json")
        #expect(decoded.runs.map(\.clockGigahertz) == [nil, 3.21])
        let text = String(decoding: bytes, as: UTF8.self)
        for bad in ["0", "-1", "25", "\"fast\""] {
            let edited = Array(text.replacingOccurrences(of: "\"clockGigahertz\" : 3.21", with: "\"clockGigahertz\" : \(bad)").utf8)
            #expect(edited != Array(text.utf8))
            #expect(throws: ResultError.self, "\(bad)") { try ResultFile.decode(edited, path: "r.json") }
            do { _ = try ResultFile.decode(edited, path: "r.json") } catch { #expect("\(error)".contains("runs[1].clockGigahertz"), "\(error)") }
        }
    }

    @Test func roundTripThroughAFile() throws {
        let path = TemporaryDirectory.uniquePath("roundtrip.json")
        defer { unlink(path) }
        let original = SampleResult.classic()
        try ResultFile.write(original, to: path)
        #expect(try ResultFile.read(path) == original)
    }

    @Test func encodingIsStableAndVersioned() throws {
        let text = String(decoding: try ResultFile.encode(SampleResult.classic()), as: UTF8.self) + "\n"
        #expect(text.contains("\"schemaVersion\" : \(LaunchResult.currentSchemaVersion)"))
        #expect(text.contains("\"name\" : \"launchprof\""))
        #expect(text == (String(decoding: try ResultFile.encode(SampleResult.classic()), as: UTF8.self) + "\n"))
    }

    @Test func unknownSchemaVersionIsAClearError() throws {
        var text = String(decoding: try ResultFile.encode(SampleResult.classic()), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"schemaVersion\" : \(LaunchResult.currentSchemaVersion)", with: "\"schemaVersion\" : 99")
        do {
            _ = try ResultFile.decode(Array(text.utf8), path: "future.json")
            Issue.record("a future schema must be refused")
        } catch {
            #expect(error.description == "future.json: result schema version 99 is not supported (this launchprof \(launchprofVersion) reads versions 1 to 6)")
        }
    }

    @Test func garbageAndMissingFieldsAreClearErrors() {
        let invalid = ResultError.invalidJSON(
            path: "x.json", position: ResultPosition(keyPath: "", line: 1, column: 2), problem: "expected a string, found 'n'")
        #expect(throws: invalid) { try ResultFile.decode(Array("{nope".utf8), path: "x.json") }
        #expect(invalid.description == "x.json: not a launchprof result (invalid JSON at line 1, column 2: expected a string, found 'n')")
        let unversioned = ResultError.refused(path: "x.json", position: nil, reason: "not a launchprof result (no schemaVersion)")
        #expect(throws: unversioned) { try ResultFile.decode(Array("{}".utf8), path: "x.json") }
        #expect(unversioned.description == "x.json: not a launchprof result (no schemaVersion)")
        do {
            _ = try ResultFile.decode(Array("{\"schemaVersion\": 1}".utf8), path: "x.json")
            Issue.record("a result without runs must be refused")
        } catch {
            #expect(error.description.hasPrefix("x.json: malformed result: "))
            #expect(error.description.contains("missing key"))
        }
    }
}

import Testing
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
import LaunchStats
#if canImport(Glibc)
import Glibc
#endif

/// The streaming reader against the Codable one: the same tables, the same refusals.
@Suite struct ResultTableReaderTests {
    /// The classic sample with instruction counts on every phase and run (schema 2).
    static func counted(runs: Int) -> LaunchResult { SampleResult.counted(runs: runs) }

    static func text(_ result: LaunchResult) throws -> String { String(decoding: try ResultFile.encode(result), as: UTF8.self) }

    @Test func versionTwoTablesEqualTheDecodedOnes() throws {
        let bytes = try ResultFile.encode(Self.counted(runs: 3))
        let fast = try ResultTableReader.tabulate(bytes, path: "r.json")
        let slow = TabulatedResult(try ResultFile.decode(bytes, path: "r.json"))
        #expect(fast == slow)
        #expect(fast.table.rows.first?.instructions == [1000, 1001, 1002])
        #expect(fast.table.instructionTotals == [1_000_000, 1_000_001, 1_000_002])
        #expect(fast.table.rows.map(\.path).contains("building layouts/portrait"))
        #expect(fast.header.runs.isEmpty && fast.header.manifest.name == "default")
    }

    @Test func versionOneReadsTheSame() throws {
        let text = try Self.text(SampleResult.classic(runs: 2)).replacingOccurrences(
            of: "\"schemaVersion\" : \(LaunchResult.currentSchemaVersion)", with: "\"schemaVersion\" : 1")
        let fast = try ResultTableReader.tabulate(Array(text.utf8), path: "v1.json")
        #expect(fast == TabulatedResult(try ResultFile.decode(Array(text.utf8), path: "v1.json")))
        #expect(fast.header.schemaVersion == 1)
        #expect(fast.table.instructionTotals.isEmpty)
    }

    @Test func aFileReadInChunksEqualsTheDecodedOne() throws {
        // About 3 MB: the reader refills its 1 MiB chunks several times, tokens crossing chunk ends.
        var result = Self.counted(runs: 2000)
        result.runs[7].phases[0].name = "Init \u{e9}\u{1F600} \"quoted\" \\ tab\t"
        let path = TemporaryDirectory.uniquePath("table.json")
        defer { unlink(path) }
        try ResultFile.write(result, to: path)
        let fast = try ResultTableReader.read(path)
        #expect(fast == TabulatedResult(try ResultFile.read(path)))
        #expect(fast.table.rows.contains { $0.name.hasPrefix("Init \u{e9}\u{1F600} \"quoted\"") })
        #expect(fast.table.runCount == 2000)
    }

    @Test func canonicallyEqualNamesShareARow() throws {
        // "é" precomposed and decomposed are one Swift string, so one path in PhaseTable(result).
        var result = SampleResult.classic(runs: 2)
        result.runs[0].phases[3].name = "caf\u{e9}"
        result.runs[1].phases[3].name = "cafe\u{301}"
        let bytes = try ResultFile.encode(result)
        #expect(try ResultTableReader.tabulate(bytes, path: "r.json") == TabulatedResult(try ResultFile.decode(bytes, path: "r.json")))
    }

    /// Both readers refuse `text`; returns the streaming reader's message.
    func refused(_ text: String, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let bytes = Array(text.utf8)
        var message = ""
        do {
            _ = try ResultTableReader.tabulate(bytes, path: "bad.json")
            Issue.record("the streaming reader accepted it", sourceLocation: sourceLocation)
        } catch {
            message = error.description
            #expect(message.hasPrefix("bad.json: "), sourceLocation: sourceLocation)
            #expect(message.contains(fragment), "\(message)", sourceLocation: sourceLocation)
        }
        #expect(throws: ResultError.self, sourceLocation: sourceLocation) { try ResultFile.decode(bytes, path: "bad.json") }
        return message
    }

    @Test func everyRefusalClassNamesFileAndPlace() throws {
        let good = try Self.text(Self.counted(runs: 1))
        // Syntax, with line and column.
        _ = refused("{nope", "invalid JSON at line 1, column 2")
        _ = refused(good + "x", "the end of the file after the result")
        _ = refused(good.replacingOccurrences(of: "\"afterLaunch\" : false,", with: "\"afterLaunch\" : false,,"), "invalid JSON")
        _ = refused(good.replacingOccurrences(of: "\"Init\"", with: "\"In\u{01}it\""), "control character")
        // Nesting past the limit, with the key path.
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let nested = refused(
            good.replacingOccurrences(of: "\"warnings\" : [", with: "\"extra\" : \(deep),\n  \"warnings\" : ["), "nesting deeper than 64 levels")
        #expect(nested.contains("extra[0][0]"))
        // Types and missing keys, with the key path.
        let wrongType = refused(
            good.replacingOccurrences(of: "\"duration\" : 0.89", with: "\"duration\" : \"slow\""),
            "runs[0].phases[0].duration: expected a number, found a string")
        #expect(wrongType.contains("malformed result"))
        _ = refused(good.replacingOccurrences(of: "\"afterLaunch\" : false,", with: ""), "missing key \"afterLaunch\"")
        _ = refused(good.replacingOccurrences(of: "\"depth\" : 0", with: "\"depth\" : 1.5"), "expected an integer")
        _ = refused(good.replacingOccurrences(of: "\"depth\" : 0", with: "\"depth\" : 99999999999999999999"), "out of the integer range")
        _ = refused(good.replacingOccurrences(of: "\"kind\" : \"cpu\"", with: "\"kind\" : \"gpu\""), "is not a phase kind")
        // Numbers that are not finite doubles.
        _ = refused(good.replacingOccurrences(of: "\"duration\" : 0.89", with: "\"duration\" : 1e999"), "too large for a number")
        _ = refused(good.replacingOccurrences(of: "\"duration\" : 0.89", with: "\"duration\" : 1e-999"), "too small")
        // Consistency: parents before children, non-negative durations and counts, phase depth.
        _ = refused(good.replacingOccurrences(of: "\"parent\" : 1", with: "\"parent\" : 5"), "runs[0].phases[2].parent: 5 is not an earlier phase of the run")
        _ = refused(good.replacingOccurrences(of: "\"duration\" : 0.89", with: "\"duration\" : -0.89"), "the duration not negative")
        _ = refused(good.replacingOccurrences(of: "\"instructions\" : 1000,", with: "\"instructions\" : -1000,"), "must not be negative")
        _ = refused(good.replacingOccurrences(of: "\"depth\" : 1", with: "\"depth\" : 100000000"), "deeper than the 256 levels")
        // Keys twice, or a known key spelled with escapes.
        _ = refused(good.replacingOccurrences(of: "\"afterLaunch\" : false,", with: "\"afterLaunch\" : false, \"afterLaunch\" : true,"), "appears twice")
        _ = refused(good.replacingOccurrences(of: "\"total\" :", with: "\"tot\\u0061l\" :"), "without escapes")
        // Versions.
        _ = refused(
            good.replacingOccurrences(of: "\"schemaVersion\" : \(LaunchResult.currentSchemaVersion)", with: "\"schemaVersion\" : 99"),
            "result schema version 99 is not supported")
        _ = refused(
            good.replacingOccurrences(of: "\"schemaVersion\" : \(LaunchResult.currentSchemaVersion)", with: "\"schemaVersionX\" : 2"), "no schemaVersion")
        // The header is checked by the Codable model.
        _ = refused(good.replacingOccurrences(of: "\"cores\" : 2", with: "\"cores\" : \"two\""), "host.cores")
    }

    @Test func aMarkOrCounterWithAKeyTwiceOrMissingIsRefusedWithItsPlace() throws {
        let good = try Self.text(Self.counted(runs: 1))
        let repeated = refused(
            good.replacingOccurrences(of: "\"name\" : \"first frame\",", with: "\"name\" : \"first frame\", \"name\" : \"again\","),
            "the key \"name\" appears twice")
        #expect(repeated.contains("runs[0].marks[0]"), "\(repeated)")
        let noTime = refused(good.replacingOccurrences(of: "\"time\" : 3.68", with: "\"time2\" : 3.68"), "missing key \"time\"")
        #expect(noTime.contains("runs[0].marks[0]"), "\(noTime)")
        let twice = refused(good.replacingOccurrences(of: "\"value\" : 19", with: "\"value\" : 19, \"value\" : 20"), "the key \"value\" appears twice")
        #expect(twice.contains("runs[0].counters[0]"), "\(twice)")
        let noName = refused(good.replacingOccurrences(of: "\"name\" : \"keys laid out\",", with: ""), "missing key \"name\"")
        #expect(noName.contains("runs[0].counters[0]"), "\(noName)")
        _ = refused(good.replacingOccurrences(of: "\"deferred\" :", with: "\"deferredX\" :"), "missing key \"deferred\"")
    }

    @Test func onlyRegularFilesWithinTheSizeLimitAreRead() throws {
        #expect(throws: ResultError.self) { try ResultTableReader.read("/dev/zero") }
        do { _ = try ResultTableReader.read("/dev/zero"); Issue.record("a device must be refused") } catch {
            #expect(error.description == "/dev/zero: is not a regular file (a device, FIFO or socket): results are read from regular files only")
        }
        do { _ = try ResultTableReader.read("/tmp"); Issue.record("a directory must be refused") } catch {
            #expect(error.description.contains("is a directory"))
        }
        // A sparse file one byte over 1 GiB is refused from its size, without reading it.
        let path = TemporaryDirectory.uniquePath("huge.json")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        #expect(ftruncate(fd, off_t(ResultLimits.maximumFileBytes + 1)) == 0)
        close(fd)
        defer { unlink(path) }
        for read in [{ _ = try ResultTableReader.read(path) }, { _ = try ResultFile.read(path) }] as [() throws -> Void] {
            do { try read(); Issue.record("a file over the limit must be refused") } catch {
                #expect("\(error)".contains("over the 1024 MiB limit"))
            }
        }
        do { _ = try ResultTableReader.read("/nonexistent/r.json"); Issue.record("missing") } catch {
            #expect(error.description.hasPrefix("/nonexistent/r.json: cannot read"))
        }
    }
}

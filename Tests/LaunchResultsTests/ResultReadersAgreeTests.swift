import Testing
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The result schema's two readers — the streaming table reader (`diff`, `check`) and the model
/// codec (`report`, `compare`, the history) — kept in step by a test rather than by convention:
/// the same keys, and on every result file the tests hold, the same verdict and the same table.
@Suite struct ResultReadersAgreeTests {
    /// The package's root (this file is Tests/LaunchExportTests/ResultReadersAgreeTests.swift).
    static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// A result whose runs and phases carry every optional field the model writes.
    static func everyField() -> LaunchResult {
        var result = SampleResult.classic(runs: 2)
        for r in result.runs.indices {
            result.runs[r].pid = 100 + r
            result.runs[r].peakResidentBytes = 1 << 20
            result.runs[r].instructions = 1_000_000
            result.runs[r].taps = TapRecord(delivered: 3, lost: 1, latencies: [0.01, 0.02, 0.03])
            result.runs[r].process = ProcessRecord(user: 0.1, system: 0.05, exitStatus: 0, signal: 9)
            result.runs[r].process?.killedOverMemoryLimit = false
            result.runs[r].process?.counters = Self.counters
            result.runs[r].deferred = ["later"]
            result.runs[r].clockGigahertz = 3.2
            result.runs[r].counters = [CounterRecord(name: "images", value: 3)]
            for p in result.runs[r].phases.indices {
                result.runs[r].phases[p].instructions = 1000
                result.runs[r].phases[p].hostDuration = 0.001
                result.runs[r].phases[p].residentBytes = 4096
                result.runs[r].phases[p].residentGrowth = 1024
                result.runs[r].phases[p].background = false
                result.runs[r].phases[p].kind = .cpu
                result.runs[r].phases[p].counters = Self.counters
            }
        }
        return result
    }

    /// System counters with every field set.
    static let counters = PhaseCounters(
        cpuTime: 0.01, runnableTime: 0.001, minorFaults: 10, majorFaults: 1, voluntarySwitches: 2, involuntarySwitches: 3, bytesRead: 4096,
        bytesWritten: 512)

    /// The keys of the objects at `path` (`runs`, `phases`…, through every array) in the encoded `result`.
    static func keys(_ result: LaunchResult, _ path: [String]) throws -> Set<String> {
        var values = [try JSONParser.parse(try ResultFile.encode(result))]
        for key in path {
            values = values.compactMap { $0.object?[key] }.flatMap { $0.array ?? [$0] }
        }
        return Set(values.flatMap { $0.object?.keys ?? [] })
    }

    static func names(_ keys: KeySet) -> Set<String> { Set(keys.names.map { "\($0)" }) }

    @Test func theTableReaderKnowsEveryKeyTheCodecWrites() throws {
        let result = Self.everyField()
        #expect(try Self.keys(result, ["runs"]) == Self.names(ResultStreamParser.runKeys))
        #expect(try Self.keys(result, ["runs", "phases"]) == Self.names(PlainPhaseScanner.keys))
        #expect(try Self.keys(result, ["runs", "marks"]) == Self.names(ResultStreamParser.markKeys))
        #expect(try Self.keys(result, ["runs", "counters"]) == Self.names(ResultStreamParser.counterKeys))
        #expect(try Self.keys(result, ["runs", "taps"]) == Self.names(ResultStreamParser.tapKeys))
        #expect(try Self.keys(result, ["runs", "process"]) == Self.names(ResultStreamParser.processKeys))
        #expect(try Self.keys(result, ["runs", "phases", "counters"]) == Self.names(ResultStreamParser.phaseCounterKeys))
        #expect(try Self.keys(result, ["runs", "process", "counters"]) == Self.names(ResultStreamParser.phaseCounterKeys))
    }

    @Test func aResultWithEveryFieldReadsTheSame() throws {
        let bytes = try ResultFile.encode(Self.everyField())
        let model = try ResultFile.decode(bytes, path: "r.json")
        #expect(model == Self.everyField())
        #expect(try ResultTableReader.tabulate(bytes, path: "r.json") == TabulatedResult(model))
    }

    /// A reader's table, or its error's message.
    static func outcome(_ read: () throws -> TabulatedResult) -> (value: TabulatedResult?, error: String?) {
        do { return (try read(), nil) } catch { return (nil, "\(error)") }
    }

    /// Every result file of the fuzz corpus (valid and hostile): both readers accept it with
    /// the same table, or both refuse it with the same message.
    @Test func everyResultFileOfTheTestsReadsTheSameByBoth() throws {
        let directory = Self.packageRoot + "/Tests/Fuzz/Corpus/result"
        let files = FileIO.entries(of: directory).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 6)
        var accepted = 0
        for name in files {
            let path = directory + "/" + name
            let table = Self.outcome { try ResultTableReader.read(path) }
            let model = Self.outcome { TabulatedResult(try ResultFile.read(path)) }
            #expect(table.error == model.error, "\(name)")
            #expect(table.value == model.value, "\(name)")
            if table.value != nil { accepted += 1 }
        }
        #expect(accepted >= 2)
    }
}

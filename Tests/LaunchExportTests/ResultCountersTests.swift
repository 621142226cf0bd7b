import Testing
@testable import LaunchExport
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
import LaunchStats

/// Schema 6's counters in the result file: written, read back by both readers to the same table,
/// checked (a negative counter names its key path), and absent from older results.
@Suite struct ResultCountersTests {
    static func withCounters(runs: Int) -> LaunchResult {
        var result = SampleResult.classic(runs: runs)
        for r in result.runs.indices {
            for p in result.runs[r].phases.indices {
                result.runs[r].phases[p].counters = PhaseCounters(
                    cpuTime: 0.001 * Double(p + 1), runnableTime: p == 0 ? nil : 0.0001, minorFaults: 10 + p, majorFaults: r,
                    voluntarySwitches: 1, involuntarySwitches: 0, bytesRead: 4096 * p, bytesWritten: p == 1 ? nil : 0)
            }
        }
        result.runs[0].process = ProcessRecord(user: 0.01, system: 0.002, exitStatus: 0)
        result.runs[0].process?.counters = PhaseCounters(cpuTime: 0.012, minorFaults: 300, majorFaults: 4, bytesRead: 1 << 20)
        return result
    }

    @Test func countersRoundTripAndBothReadersAgree() throws {
        let result = Self.withCounters(runs: 3)
        let bytes = try ResultFile.encode(result)
        let decoded = try ResultFile.decode(bytes, path: "r.json")
        #expect(decoded == result)
        #expect(decoded.schemaVersion == 6)
        let fast = try ResultTableReader.tabulate(bytes, path: "r.json")
        #expect(fast == TabulatedResult(decoded))
        let first = try #require(fast.table.rows.first)
        #expect(first.counters.map(\.majorFaults) == [0, 1, 2])
        #expect(first.blockedTimes.count == 3)
        // Run 1's launch counters are its process's; the others' the sum of their top-level phases.
        #expect(fast.table.totalCounters.count == 3)
        #expect(fast.table.totalCounters[0].majorFaults == 4)
    }

    @Test func aNegativeCounterIsRefusedWithItsKeyPath() throws {
        let text = String(decoding: try ResultFile.encode(Self.withCounters(runs: 1)), as: UTF8.self)
            .replacingOccurrences(of: "\"majorFaults\" : 0", with: "\"majorFaults\" : -3")
        #expect(throws: ResultError.self) { try ResultFile.decode(Array(text.utf8), path: "r.json") }
        do {
            _ = try ResultFile.decode(Array(text.utf8), path: "r.json")
        } catch {
            #expect("\(error)".contains("runs[0].phases[0].counters.majorFaults"), "\(error)")
        }
    }

    @Test func aVersionFiveResultHasNoCountersAndStillReads() throws {
        let text = String(decoding: try ResultFile.encode(SampleResult.classic(runs: 2)), as: UTF8.self)
            .replacingOccurrences(of: "\"schemaVersion\" : 6", with: "\"schemaVersion\" : 5")
        let read = try ResultFile.decode(Array(text.utf8), path: "v5.json")
        #expect(read.schemaVersion == 5)
        #expect(read.runs.allSatisfy { $0.phases.allSatisfy { $0.counters == nil } })
        #expect(try ResultTableReader.tabulate(Array(text.utf8), path: "v5.json").table.totalCounters.isEmpty)
    }

    @Test func theReportShowsCountersOnlyWhenAsked() throws {
        let result = Self.withCounters(runs: 3)
        #expect(!TextReportExporter().render(result).contains("faults"))
        var options = ReportOptions(allPhases: true)
        options.showCounters = true
        let text = TextReportExporter(options: options).render(result)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Time for Init") })
        #expect(line.contains("[cpu 1.00 ms"), "\(line)")
        #expect(line.contains("faults 10 minor, 1 major; switches 1 voluntary, 0 involuntary; read 0 B, wrote 0 B]"), "\(line)")
        #expect(!line.contains("waiting"), "the first phase has no wait for a CPU in these runs: left out, not 0")
    }

    @Test func csvAndTheChromeTraceCarryTheCounters() throws {
        let result = Self.withCounters(runs: 1)
        let csv = CSVExporter().render(result).split(separator: "\n")
        #expect(csv[0].hasSuffix(",cpu,runnable,blocked,minor_faults,major_faults,voluntary_switches,involuntary_switches,bytes_read,bytes_written"))
        // Init: no wait for a CPU read (empty, not 0), 10 minor faults, 0 bytes read and written.
        #expect(csv[1].hasPrefix("1,Init,"))
        #expect(csv[1].contains(",0.001000,,"), "cpu, then an empty runnable: \(csv[1])")
        #expect(csv[1].hasSuffix(",10,0,1,0,0,0"), "faults, switches, bytes: \(csv[1])")
        let trace = try ChromeTraceExporter().render(result)
        #expect(trace.contains(#""cpu_ms":1.000,"#), "the phase's CPU time in its args")
        #expect(trace.contains(#""minor_faults":10"#) && trace.contains(#""bytes_read":4096"#))
    }

    @Test func theMarkdownSummaryCarriesTheCounters() throws {
        let text = MarkdownSummaryExporter().render(Self.withCounters(runs: 3))
        let lines = text.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("| Phase |") })
        #expect(header.hasSuffix("| CPU | Waiting | Blocked | Faults (minor / major) | Switches (vol. / invol.) | Read / written |"), "\(header)")
        #expect(lines.contains { $0.hasPrefix("|---|") && $0.components(separatedBy: "|").count == header.components(separatedBy: "|").count })
        // Init: its medians (majorFaults 0, 1, 2 in the three runs), no wait for a CPU read: `-`, not 0.
        let initRow = try #require(lines.first { $0.hasPrefix("| Init |") })
        #expect(initRow.hasSuffix("| 1.00 ms | - | 899 ms | 10 / 1 | 1 / 0 | 0 B / 0 B |"), "\(initRow)")
        // building layouts: waiting 0.1 ms, blocked 910 − 2 − 0.1 ms; bytes written not read: the bytes cell is `-`.
        let layouts = try #require(lines.first { $0.hasPrefix("| building layouts |") })
        #expect(layouts.hasSuffix("| 2.00 ms | 100 µs | 908 ms | 11 / 1 | 1 / 0 | - |"), "\(layouts)")
        // A deferred row keeps the column count.
        let deferred = try #require(lines.first { $0.contains("| deferred |") })
        #expect(deferred.components(separatedBy: "|").count == header.components(separatedBy: "|").count)
        #expect(!MarkdownSummaryExporter().render(SampleResult.classic(runs: 3)).contains("CPU"), "no counters, no columns")
    }
}

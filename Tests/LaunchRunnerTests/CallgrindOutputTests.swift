#if canImport(Glibc)
import LaunchprofTestSupport
import Glibc
#endif
import Testing
import LaunchCore
@testable import LaunchRunner

/// Callgrind's combined output, as `valgrind --tool=callgrind --combine-dumps=yes` writes it.
struct CallgrindOutputTests {
    static func part(_ n: Int, trigger: String, _ count: Int) -> String {
        """
        part: \(n)

        desc: Timerange: Basic block 0 - 100
        desc: Trigger: \(trigger)

        positions: line
        events: Ir
        summary: \(count)

        fl=(1) a.c
        fn=(1) main
        16 \(count)

        totals: \(count)

        """
    }

    static func file(_ parts: [(String, Int)]) -> String {
        "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 42\ncmd:  app\n\n"
            + parts.enumerated().map { part($0.offset + 1, trigger: $0.element.0, $0.element.1) }.joined()
    }

    @Test func partsAndCumulativeCounts() throws {
        let text = Self.file([
            ("Client Request: launchprof main", 1000), ("Client Request: launchprof begin 0 0", 50),
            ("Client Request: launchprof end 0 0", 700), ("Program termination", 9)
        ])
        let output = try CallgrindOutput(text: Substring(text))
        #expect(output.parts.map(\.instructions) == [1000, 50, 700, 9])
        #expect(output.parts.map(\.label) == ["launchprof main", "launchprof begin 0 0", "launchprof end 0 0", nil])
        let at = try #require(output.cumulative())
        #expect(at["launchprof main"] == 1000)
        #expect(at["launchprof begin 0 0"] == 1050)
        #expect(at["launchprof end 0 0"] == 1750)
    }

    @Test func refusesWhatCallgrindDoesNotWrite() {
        #expect(throws: RunnerError.self) { try CallgrindOutput(text: "") }
        #expect(throws: RunnerError.self) { try CallgrindOutput(text: "part: 1\nevents: Dr Ir\nsummary: 5\n") }
        #expect(throws: RunnerError.self) { try CallgrindOutput(text: "part: 1\nevents: Ir\nsummary: many\n") }
        #expect(throws: RunnerError.self) { try CallgrindOutput(text: "part: 1\nevents: Ir\nsummary: -4\n") }
        let huge = try? CallgrindOutput(text: "part: 1\nsummary: \(Int.max)\npart: 2\nsummary: 1\n")
        #expect(huge != nil && huge?.cumulative() == nil, "an overflowing total is refused, not wrapped")
    }

    /// Phases nested on thread 0 and one on thread 1, numbered per thread in begin order.
    @Test func attachesNestedAndPerThreadCounts() throws {
        let output = try CallgrindOutput(
            text: Substring(
                Self.file([
                    ("Client Request: launchprof main", 100),
                    ("Client Request: launchprof begin 0 0", 10),  // 110
                    ("Client Request: launchprof begin 0 1", 20),  // 130
                    ("Client Request: launchprof begin 1 0", 5),  // 135
                    ("Client Request: launchprof end 1 0", 40),  // 175
                    ("Client Request: launchprof end 0 1", 25),  // 200
                    ("Client Request: launchprof end 0 0", 300),  // 500
                    ("Client Request: launchprof begin 0 2", 1),  // 501 (after launch)
                    ("Client Request: launchprof end 0 2", 99)  // 600
                ])))
        var record = RunRecord(
            pid: 42, total: 1,
            phases: [
                PhaseRecord(name: ProtocolParser.processStartPhase, start: 0, duration: 0.01),
                PhaseRecord(name: "loading", start: 0.01, duration: 0.5),
                PhaseRecord(name: "theme", start: 0.02, duration: 0.1, depth: 1, parent: 1),
                PhaseRecord(name: "decode", start: 0.03, duration: 0.05, thread: 1),
                PhaseRecord(name: "lazy", start: 0.7, duration: 0.1, afterLaunch: true)
            ])
        try InstructionCounting.attach(output, to: &record)
        #expect(record.phases.map(\.instructions) == [100, 390, 70, 40, 99])
        #expect(record.instructions == 500, "the total ends with the last launch phase, not the lazy one")
    }

    @Test func aMissingDumpIsAnErrorNotZero() throws {
        let output = try CallgrindOutput(text: Substring(Self.file([("Client Request: launchprof main", 100)])))
        var record = RunRecord(
            pid: 1, total: 1,
            phases: [
                PhaseRecord(name: ProtocolParser.processStartPhase, start: 0, duration: 0.01),
                PhaseRecord(name: "drawing", start: 0.01, duration: 0.5)
            ])
        #expect(throws: RunnerError.instructionsNotCounted("no Callgrind dumps for phase 'drawing' (thread 0, phase 0)")) {
            try InstructionCounting.attach(output, to: &record)
        }
        let noMain = try CallgrindOutput(text: Substring(Self.file([("Program termination", 100)])))
        #expect(throws: RunnerError.self) { try InstructionCounting.attach(noMain, to: &record) }
    }

    /// A program (`exec`): per-phase counts when it made the dumps, and every process of the command as its total.
    @Test func aProgramsTotalIsTheWholeProcess() throws {
        let output = try CallgrindOutput(
            text: Substring(
                Self.file([
                    ("Client Request: launchprof main", 100), ("Client Request: launchprof begin 0 0", 10),
                    ("Client Request: launchprof end 0 0", 40), ("Program termination", 7)
                ])))
        #expect(output.total == 157)
        var record = RunRecord(
            pid: 1, total: 1,
            phases: [PhaseRecord(name: ProtocolParser.processStartPhase, start: 0, duration: 0.01), PhaseRecord(name: "work", start: 0.01, duration: 0.5)])
        try InstructionCounting.attachProgram([42: output], launched: 42, to: &record)
        #expect(record.phases.map(\.instructions) == [100, 40])
        #expect(record.instructions == 157, "the whole process, to its exit, as exec's time")
        // A shell that ran the program as its child: the phases from the child, the total of both.
        let shell = try CallgrindOutput(text: Substring(Self.file([("Program termination", 1000)])))
        var run = RunRecord(
            pid: 7, total: 1,
            phases: [PhaseRecord(name: ProtocolParser.processStartPhase, start: 0, duration: 0.01), PhaseRecord(name: "work", start: 0.01, duration: 0.5)])
        try InstructionCounting.attachProgram([7: shell, 8: output], launched: 7, to: &run)
        #expect(run.phases.map(\.instructions) == [100, 40])
        #expect(run.instructions == 1157, "every process of the command")
    }

    /// A program without a client's dumps: the whole-process count, and no phase gets a made-up one.
    @Test func aProgramWithoutDumpsGetsItsWholeCount() throws {
        let output = try CallgrindOutput(text: Substring(Self.file([("Program termination", 1234)])))
        var bare = RunRecord(pid: 1, total: 1, phases: [])
        try InstructionCounting.attachProgram([1: output], launched: 1, to: &bare)
        #expect(bare.instructions == 1234)
        var reported = RunRecord(
            pid: 1, total: 1,
            phases: [PhaseRecord(name: ProtocolParser.processStartPhase, start: 0, duration: 0.01), PhaseRecord(name: "work", start: 0.01, duration: 0.5)])
        try InstructionCounting.attachProgram([1: output], launched: 1, to: &reported)
        #expect(reported.instructions == 1234)
        #expect(reported.phases.allSatisfy { $0.instructions == nil }, "phases without dumps have no count, never 0")
    }

    /// A Swift binary's debug information decides whether Valgrind gets a stripped copy: this test
    /// binary has it, a script has none.
    @Test func debugSectionsAreFoundInELFFilesOnly() throws {
        #expect(ELFDebugSections.present(in: "/proc/self/exe", swift: true), "a debug build of the Swift tests has .debug_info and swift5_ sections")
        let script = TemporaryDirectory.uniquePath("elf.sh")
        try FileIO.writeAtomically("#!/bin/sh\nexit 0\n", to: script)
        defer { unlink(script) }
        #expect(!ELFDebugSections.present(in: script))
        #expect(!ELFDebugSections.present(in: "/nonexistent/launchprof"))
        #expect(try StrippedCopy.ifNeeded(script) == script, "a script runs as it is")
    }
}

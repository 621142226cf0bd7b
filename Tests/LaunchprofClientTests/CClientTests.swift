import Glibc
import LaunchCore
import Testing

/// The C client, `include/launchprof.h`: test programs compiled with `cc` and run as `launchprof exec`
/// runs a program, their output read back by the launcher's parser.
@Suite struct CClientTests {
    static let compiler = ClientProcess.tool("cc")
    static let flags = ["-O2", "-Wall", "-Wextra", "-Werror", "-pthread", "-I", ClientProcess.packageRoot + "/include"]

    /// Compiles `sources` (paths) with `extraFlags`; the executable's path, or the compiler's complaint.
    static func compile(_ sources: [String], extraFlags: [String] = [], compiler: String? = compiler) throws -> String {
        guard let compiler else { throw ClientProcess.SpawnError(description: "no C compiler") }
        let output = ClientProcess.temporaryPath("c-client")
        let outcome = try ClientProcess.run(compiler, flags + extraFlags + sources + ["-o", output], launchprofFD: nil, descriptor: .closed)
        guard outcome.status == 0 else { throw ClientProcess.SpawnError(description: "\(compiler) failed: \(outcome.stderr)") }
        return output
    }

    /// The test program of Programs/c_client_check.c with its second translation unit, compiled once.
    static let checkProgram: Result<String, any Error> = Result {
        try compile(["c_client_check.c", "c_client_second_unit.c"].map { ClientProcess.programs + "/" + $0 })
    }

    static func run(
        _ mode: String, _ arguments: [String] = [], launchprofFD: String? = "3",
        descriptor: ClientProcess.Descriptor = .pipe
    ) throws -> ClientProcess.Outcome {
        try ClientProcess.run(try checkProgram.get(), [mode] + arguments, launchprofFD: launchprofFD, descriptor: descriptor)
    }

    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"))
    func phasesMarksAndCountsReachTheParser() throws {
        let outcome = try Self.run("basic")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stdout == "active 0 errno kept 1\n")
        let report = try outcome.report()
        #expect(report.lines.first == Array("launchprof 1".utf8))
        #expect(report.run.phases.first?.name == ProtocolParser.processStartPhase, "the main line gives process start")
        #expect(report.phases.map(\.name) == ["loading config", "parsing", "drawing", "inner", "unknown kind"])
        #expect(report.phases.map(\.kind) == [.io, .cpu, .draw, nil, nil])
        #expect(report.phases.map(\.depth) == [0, 1, 0, 1, 0])
        #expect(report.phases.allSatisfy { $0.thread == 0 && $0.duration >= 0 })
        #expect(report.run.marks.map(\.name) == ["interactive", "errno kept"], "nothing follows done")
        #expect(report.run.counters.map(\.name) == ["keys laid out", "smallest", "largest"])
        #expect(report.run.counters.map(\.value) == [14, Int.min, Int.max])
        #expect(report.lines("done").count == 1)
    }

    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"))
    func hostileNamesComeBackAsWritten() throws {
        let extras = [
            "(unnamed)", "\u{FFFD}\u{FFFD} invalid", "cut \u{FFFD}", "lead then newline \u{FFFD}\n",
            String(repeating: "\u{FFFD}", count: 4000)
        ]
        let outcome = try Self.run("hostile", HostileNames.cases.map(\.name))
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        let report = try outcome.report()
        let expected = HostileNames.cases.map(\.expected) + extras
        #expect(report.phases.map(\.name) == expected)
        #expect(report.run.marks.map(\.name) == expected)
        #expect(Set(report.run.counters.map(\.name)) == Set(expected))
        #expect(report.lines.allSatisfy { $0.count <= 42 + 4000 })
    }

    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"))
    func threadsWriteWholeLinesWithNumbersOfTheirOwn() throws {
        let outcome = try Self.run("threads")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        try ThreadedReport.check(try outcome.report(), workers: 8, steps: 100)
    }

    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"))
    func nothingFollowsDoneWhileOtherThreadsReport() throws {
        let outcome = try Self.run("race-done")
        #expect(outcome.status == 0 && outcome.stdout == "active 0\n", "\(outcome.stderr)")
        let report = try outcome.report()
        #expect(report.lines.last?.starts(with: Array("done ".utf8)) == true)
        #expect(report.run.marks.allSatisfy { $0.name == "racing done" && $0.thread > 0 })
    }

    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"))
    func twoTranslationUnitsShareOneGreeting() throws {
        let outcome = try Self.run("units")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try outcome.report()
        #expect(report.lines("launchprof").count == 1 && report.lines("main").count == 1)
        #expect(report.phases.map(\.name) == ["main unit", "second unit"])
        #expect(report.phases.map(\.kind) == [nil, .io])
        #expect(report.run.marks.map(\.name) == ["from the second unit"])
    }

    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"))
    func manyEventsOnANonBlockingDescriptorArriveWhole() throws {
        let outcome = try Self.run("many")
        let report = try outcome.report()
        #expect(report.run.marks.count == 20_000)
    }

    /// SIGPIPE with its default action (the client's handler), blocked by the writing thread, or
    /// ignored by the program after load.
    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"), arguments: ["default", "blocked", "ignored"])
    func aBrokenPipeNeitherKillsNorStopsTheProgram(sigpipe: String) throws {
        let outcome = try Self.run("broken", [sigpipe], descriptor: .brokenPipe)
        #expect(outcome.status == 0, "SIGPIPE \(sigpipe): status \(outcome.status), \(outcome.stderr)")
        #expect(outcome.stdout == "alive: active before 1 after 0, SIGPIPE pending 0\n", "SIGPIPE \(sigpipe)")
    }

    /// The program's own broken pipe, and a SIGPIPE sent to it, still kill it as the default action does.
    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"), arguments: ["write", "kill"])
    func aSIGPIPEThatIsNotTheClientsStillKills(how: String) throws {
        let outcome = try Self.run("foreign-sigpipe", [how])
        #expect(outcome.status == 128 + SIGPIPE, "\(how): status \(outcome.status), \(outcome.stdout)")
        #expect(outcome.stdout.isEmpty)
        #expect(String(decoding: outcome.output, as: UTF8.self).contains(" before\n"), "the client was active")
    }

    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"))
    func forkedAndStartedChildrenDoNotWriteIntoThePipe() throws {
        let outcome = try Self.run("children")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "child: LAUNCHPROF_FD unset, descriptor 3 closed, active 0\nenvironment in main: unset\n")
        let report = try outcome.report()
        #expect(report.phases.map(\.name) == ["parent"])
        #expect(report.run.marks.isEmpty)
    }

    @Test(
        .enabled(if: compiler != nil, "no C compiler: cc is not on PATH"),
        arguments: UnusableDescriptors.values)
    func anUnusableLaunchprofFDIsANoOp(value: String?) throws {
        let outcome = try Self.run("basic", launchprofFD: value)
        #expect(outcome.status == 0 && outcome.stdout == "active 0 errno kept 1\n", "LAUNCHPROF_FD=\(value ?? "unset"): \(outcome.stderr)")
        #expect(outcome.output.isEmpty, "LAUNCHPROF_FD=\(value ?? "unset") wrote \(outcome.output.count) bytes")
    }

    @Test(
        .enabled(if: compiler != nil, "no C compiler: cc is not on PATH"),
        arguments: [ClientProcess.Descriptor.readOnly, .closed])
    func aDescriptorNotOpenForWritingIsANoOp(descriptor: ClientProcess.Descriptor) throws {
        let outcome = try Self.run("basic", descriptor: descriptor)
        #expect(outcome.status == 0 && outcome.stdout == "active 0 errno kept 1\n", "\(descriptor): \(outcome.stderr)")
    }

    @Test(.enabled(if: compiler != nil, "no C compiler: cc is not on PATH"))
    func theHeaderCompilesCleanlyAsC99C11AndCPlusPlus() throws {
        let source = ClientProcess.temporaryPath("header.c")
        defer { unlink(source) }
        let text = """
            #define LAUNCHPROF_IMPLEMENTATION
            #include "launchprof.h"
            int main(void) { { LP_SCOPE("a"); LP_SCOPE_KIND(LP_KIND_IO, "b"); } lp_count(1, "c"); lp_done(); return lp_active(); }

            """
        try FileIO.writeAtomically(text, to: source)
        for standard in ["-std=c99", "-std=c11"] {
            _ = try Self.compile([source], extraFlags: [standard, "-D_POSIX_C_SOURCE=200809L", "-pedantic"])
        }
        if let cplusplus = ClientProcess.tool("c++") {
            _ = try Self.compile(["-x", "c++", source], extraFlags: ["-std=c++11", "-pedantic"], compiler: cplusplus)
        }
    }
}

/// The C client's counters: each phase that does a known thing sees it (docs/counters.md).
@Suite struct CClientCounterTests {
    @Test(.enabled(if: CClientTests.compiler != nil, "no C compiler: cc is not on PATH"))
    func eachPhaseCarriesItsThreadsCounters() throws {
        let program = try CClientTests.compile([ClientProcess.programs + "/c_client_counters.c"])
        try CounterProgram.check { input in try ClientProcess.run(program, [input], launchprofFD: "3", descriptor: .pipe) }
    }
}

/// What the clients' counters programs do (c_client_counters.c, python_client_check.py's `counters`):
/// read a file of 200,000 bytes whole, touch 256 new pages, sleep 0.1 s; each phase's counters see it.
enum CounterProgram {
    /// Runs the program (`run` gets the input file's path) and checks its phases' counters.
    static func check(_ run: (String) throws -> ClientProcess.Outcome) throws {
        let input = ClientProcess.temporaryPath("counters-input")
        try FileIO.writeAtomically([UInt8](repeating: 3, count: 200_000), to: input)
        defer { unlink(input) }
        let outcome = try run(input)
        #expect(outcome.status == 0 && outcome.stdout == "200000\n", "\(outcome.stderr)")
        let phases = try outcome.report().phases
        #expect(phases.map(\.name) == ["reading", "touching", "sleeping"])
        let reading = try #require(phases[0].counters), touching = try #require(phases[1].counters), sleeping = try #require(phases[2].counters)
        #expect(try #require(reading.bytesRead) >= 200_000)
        #expect(touching.minorFaults >= 128 && touching.majorFaults == 0)
        #expect(sleeping.voluntarySwitches >= 1)
        #expect(sleeping.bytesWritten == 0, "the client's own protocol lines are not the phase's writes")
        #expect(sleeping.blocked(duration: phases[2].duration) >= 0.099, "asleep is blocked, not running nor waiting for a CPU")
    }
}

import Glibc
import LaunchCore
import Testing

/// The Python client, `clients/python/launchprof.py`, run by `python3` as `launchprof exec` runs a
/// program; its output read back by the launcher's parser.
@Suite struct PythonClientTests {
    static let python = ClientProcess.tool("python3")
    static let script = ClientProcess.programs + "/python_client_check.py"

    static func run(
        _ mode: String, _ arguments: [String] = [], launchprofFD: String? = "3",
        descriptor: ClientProcess.Descriptor = .pipe
    ) throws -> ClientProcess.Outcome {
        guard let python else { throw ClientProcess.SpawnError(description: "no python3") }
        return try ClientProcess.run(python, [script, mode] + arguments, launchprofFD: launchprofFD, descriptor: descriptor)
    }

    @Test(.enabled(if: python != nil, "python3 is not on PATH"))
    func contextManagerDecoratorMarksAndCountsReachTheParser() throws {
        let outcome = try Self.run("basic")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stdout == "active 0 doubled 42 environment False\n", "the value comes back; LAUNCHPROF_FD is taken")
        let report = try outcome.report()
        #expect(report.run.phases.first?.name == ProtocolParser.processStartPhase)
        #expect(report.phases.map(\.name) == ["loading config", "parsing", "decorated", "raising", "by hand"])
        #expect(report.phases.map(\.kind) == [.io, .cpu, .draw, nil, nil])
        #expect(report.phases.map(\.depth) == [0, 1, 0, 0, 0], "a phase whose body raised is closed")
        #expect(report.run.marks.map(\.name) == ["interactive"], "nothing follows done")
        #expect(report.run.counters.map(\.name) == ["keys laid out", "smallest", "largest"])
        #expect(report.run.counters.map(\.value) == [14, Int.min, Int.max])
    }

    @Test(.enabled(if: python != nil, "python3 is not on PATH"))
    func hostileNamesComeBackAsWritten() throws {
        let outcome = try Self.run("hostile", HostileNames.cases.map(\.name))
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        let report = try outcome.report()
        let expected = HostileNames.cases.map(\.expected) + ["lone surrogate ?"]
        #expect(report.phases.map(\.name) == expected)
        #expect(report.run.marks.map(\.name) == expected)
        #expect(Set(report.run.counters.map(\.name)) == Set(expected))
    }

    @Test(.enabled(if: python != nil, "python3 is not on PATH"))
    func threadsWriteWholeLinesWithNumbersOfTheirOwn() throws {
        let outcome = try Self.run("threads")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        try ThreadedReport.check(try outcome.report(), workers: 8, steps: 100)
    }

    @Test(.enabled(if: python != nil, "python3 is not on PATH"))
    func manyEventsOnANonBlockingDescriptorArriveWhole() throws {
        let outcome = try Self.run("many")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(try outcome.report().run.marks.count == 20_000)
    }

    @Test(.enabled(if: python != nil, "python3 is not on PATH"))
    func nothingFollowsDoneWhileOtherThreadsReport() throws {
        let outcome = try Self.run("race-done")
        #expect(outcome.status == 0 && outcome.stdout == "active 0\n", "\(outcome.stderr)")
        let report = try outcome.report()
        #expect(report.run.marks.allSatisfy { $0.name == "racing done" && $0.thread > 0 })
    }

    @Test(
        .enabled(if: python != nil, "python3 is not on PATH"),
        arguments: [("broken", "SIGPIPE ignored, as Python starts"), ("broken-default-sigpipe", "SIGPIPE's default action")])
    func aBrokenPipeNeitherKillsNorStopsTheProgram(mode: String, situation: String) throws {
        let outcome = try Self.run(mode, descriptor: .brokenPipe)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(situation): \(outcome.status), \(outcome.stderr)")
        #expect(outcome.stdout == "alive: active before 1 after 0, SIGPIPE pending 0\n", "\(situation)")
    }

    @Test(.enabled(if: python != nil, "python3 is not on PATH"))
    func forkedAndStartedChildrenDoNotWriteIntoThePipe() throws {
        let outcome = try Self.run("children")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stdout == "child: LAUNCHPROF_FD unset, descriptor 3 closed, active 0\n")
        let report = try outcome.report()
        #expect(report.phases.map(\.name) == ["parent"])
        #expect(report.run.marks.isEmpty)
    }

    @Test(.enabled(if: python != nil, "python3 is not on PATH"), arguments: [nil, "3"] as [String?])
    func mistakesAreRefusedWithOrWithoutTheDescriptor(value: String?) throws {
        let outcome = try Self.run("errors", launchprofFD: value)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                name not a str: TypeError
                phase name not a str: TypeError
                unknown kind: ValueError
                count not an int: TypeError
                count a bool: TypeError
                count past 64 bits: ValueError
                coroutine function: TypeError
                generator function: TypeError

                """)
        if value != nil { #expect(try outcome.report().run.marks.isEmpty) }
    }

    @Test(
        .enabled(if: python != nil, "python3 is not on PATH"),
        arguments: UnusableDescriptors.values)
    func anUnusableLaunchprofFDIsANoOp(value: String?) throws {
        let outcome = try Self.run("basic", launchprofFD: value)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "LAUNCHPROF_FD=\(value ?? "unset"): \(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("active 0 doubled 42"), "LAUNCHPROF_FD=\(value ?? "unset")")
        #expect(outcome.output.isEmpty, "LAUNCHPROF_FD=\(value ?? "unset") wrote \(outcome.output.count) bytes")
    }

    @Test(.enabled(if: python != nil, "python3 is not on PATH"), arguments: [ClientProcess.Descriptor.readOnly, .closed])
    func aDescriptorNotOpenForWritingIsANoOp(descriptor: ClientProcess.Descriptor) throws {
        let outcome = try Self.run("basic", descriptor: descriptor)
        #expect(outcome.status == 0 && outcome.stdout.hasPrefix("active 0 doubled 42"), "\(descriptor): \(outcome.stderr)")
    }
}

/// The Python client's counters: each phase that does a known thing sees it (docs/counters.md), as
/// the C client's do (``CClientCounterTests``).
@Suite struct PythonClientCounterTests {
    @Test(.enabled(if: PythonClientTests.python != nil, "python3 is not on PATH"))
    func eachPhaseCarriesItsThreadsCounters() throws {
        try CounterProgram.check { input in try PythonClientTests.run("counters", [input]) }
    }

    @Test(.enabled(if: PythonClientTests.python != nil, "python3 is not on PATH"))
    func noCountersWhenTurnedOff() throws {
        let input = ClientProcess.temporaryPath("python-counters-off")
        try FileIO.writeAtomically([UInt8](repeating: 3, count: 10), to: input)
        defer { unlink(input) }
        let python = try #require(PythonClientTests.python)
        // Through env(1): the test process's own environment is shared with tests running beside it.
        let outcome = try ClientProcess.run("/usr/bin/env", ["LAUNCHPROF_COUNTERS=0", python, PythonClientTests.script, "counters", input])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try outcome.report().phases.allSatisfy { $0.counters == nil })
    }
}

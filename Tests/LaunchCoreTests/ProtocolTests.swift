import Testing
import LaunchCore

@Suite struct ProtocolTests {
    func parse(_ lines: [String], spawn: UInt64 = 1_000) throws(CoreError) -> RunRecord {
        var parser = ProtocolParser(spawnReading: spawn)
        for line in lines { try parser.consume(Substring(line)) }
        return parser.run(index: 1, pid: 7)
    }

    func failure(_ lines: [String]) -> String {
        do {
            _ = try parse(lines)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func phasesAfterABackgroundLineAreTheBackgroundStepsAndOutsideTheTotal() throws {
        let run = try parse([
            "launchprof 1", "main 1000", "begin 2000 0 cpu work", "end 3000 0 work", "mark 3000 0 interactive",
            "background 4000", "begin 4000 0 io entering background", "end 9000 0 entering background", "done 9000"
        ])
        #expect(run.phases.map(\.background) == [nil, nil, true])
        #expect(run.phases[2].afterLaunch)
        #expect(run.total == 2e-6)  // The end of `work`, from the spawn reading.
        #expect(throws: CoreError.self) { try parse(["launchprof 1", "background soon"]) }
    }

    @Test func theClockARunStretchedAtIsRecordedAndAnImplausibleOneIgnored() throws {
        let lines = ["launchprof 1", "begin 2000 0 cpu work", "end 3000 0 work"]
        #expect(try parse(lines + ["x-clock 3.2153", "done 3000"]).clockGigahertz == 3.2153)
        #expect(try parse(lines + ["done 3000"]).clockGigahertz == nil)
        // An extension: what is no plausible clock (0.05 to 20 GHz) is ignored, never an error.
        for bad in ["x-clock", "x-clock fast", "x-clock 0", "x-clock -4", "x-clock 21", "x-clock nan", "x-clock inf", "x-clock 3.2 GHz"] {
            #expect(try parse(lines + [bad, "done 3000"]).clockGigahertz == nil, "\(bad)")
        }
    }

    @Test func theWriterPutsABackgroundLineBeforeTheBackgroundStep() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.phase("work") {}
        let reading = MonotonicClock.nanoseconds()
        recorder.recordingAfterLaunch = true
        recorder.phase("entering background") {}
        let lines = ProtocolWriter.report(recorders: [recorder], deferred: [], background: reading)
        let verbs = lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(
            verbs.prefix(6) == ["begin", "end", "launched", "background", "begin", "end"]
                || verbs.prefix(7) == ["begin", "end", "stats", "launched", "background", "begin", "end"])
        #expect(!ProtocolWriter.report(recorders: [recorder], deferred: [], finish: false).contains { $0.hasPrefix("done") })
    }

    @Test func timesAreSecondsFromTheSpawn() throws {
        let run = try parse(["launchprof 1", "main 3000", "begin 5000 0 cpu Init", "end 1000005000 0 Init", "done 1000006000"])
        #expect(run.phases.map(\.name) == ["process start", "Init"])
        #expect(run.phases[0].duration == 2e-6)
        #expect(run.phases[1].start == 4e-6)
        #expect(abs(run.phases[1].duration - 1.0) < 1e-12)
        #expect(abs(run.total - 1.000004) < 1e-12)
    }

    @Test func phasesAfterLaunchedAreAfterLaunch() throws {
        let run = try parse([
            "launchprof 1", "begin 2000 0 cpu a", "end 3000 0 a", "launched 4000",
            "begin 5000 0 cpu lazy", "end 9000 0 lazy", "done 9000"
        ])
        #expect(run.phases.map(\.afterLaunch) == [false, true])
        #expect(run.total == 2e-6)
    }

    @Test func threadsNestIndependently() throws {
        let run = try parse([
            "launchprof 1", "begin 2000 0 - main work", "begin 2100 1 decode bg", "begin 2200 0 - child",
            "end 2300 0 child", "end 2400 1 bg", "end 2500 0 main work", "done 2600"
        ])
        #expect(run.phases.map(\.name) == ["main work", "bg", "child"])
        #expect(run.phases.map(\.parent) == [nil, nil, 0])
        #expect(run.phases.map(\.thread) == [0, 1, 0])
        #expect(run.phases[1].kind == .decode)
    }

    @Test func malformedLinesNameTheirNumber() {
        #expect(failure(["hello"]) == "protocol line 1: expected the greeting 'launchprof 1' first, got 'hello'")
        #expect(failure(["launchprof 2"]) == "protocol line 1: protocol version '2' is not supported (this launchprof speaks version 1)")
        #expect(
            failure(["launchprof 1", "begin x 0 cpu a"])
                == "protocol line 2: expected 'begin <ns> <thread> <kind> <name>' with <ns> a CLOCK_MONOTONIC reading in nanoseconds, got 'x'")
        #expect(failure(["launchprof 1", "begin 1 0 gpu a"]) == "protocol line 2: unknown kind 'gpu' (expected cpu, io, decode, draw or -)")
        #expect(
            failure(["launchprof 1", "begin 1 0 cpu a", "end 2 0 b"])
                == "protocol line 3: end of 'b' on thread 0, but 'a' is the phase open there")
        #expect(failure(["launchprof 1", "end 2 0 b"]) == "protocol line 2: end of 'b' on thread 0, but no phase is open there")
        #expect(failure(["launchprof 1", "begin 5 0 cpu a", "end 2 0 a"]) == "protocol line 3: phase 'a' ends before it begins")
        #expect(failure(["launchprof 1", "begin 5 0 cpu a", "done 6"]) == "protocol line 3: 'done' while 'a' is still open on thread 0")
        #expect(failure(["launchprof 1", "done 6", "main 7"]) == "protocol line 3: unexpected line after 'done'")
        #expect(failure(["launchprof 1", "x-future anything", "# comment", ""]) == "no error")
    }

    @Test func writerOutputParsesBackToTheSameRun() throws {
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        recorder.memorySamplingDepth = 0
        recorder.phase("loading\tthemes", kind: .io) { recorder.phase("parse \\ file") {} }
        recorder.mark("first frame")
        recorder.count("keys", 19)
        recorder.recordingAfterLaunch = true
        recorder.phase("lazy") {}
        let lines = ProtocolWriter.lines(mainReading: clock.originNanoseconds, recorders: [recorder], deferred: ["lazy"])
        var parser = ProtocolParser(spawnReading: clock.originNanoseconds)
        for line in lines { try parser.consume(Substring(line)) }
        #expect(parser.finished)
        let run = parser.run(index: 1, pid: nil)
        let direct = RunRecord(clock: clock, recorders: [recorder])
        #expect(run.phases.dropFirst().map(\.name) == direct.phases.map(\.name))
        #expect(run.phases.dropFirst().map(\.afterLaunch) == [false, false, true])
        #expect(run.phases[1].residentBytes != nil)
        for (parsed, original) in zip(run.phases.dropFirst(), direct.phases) {
            #expect(abs(parsed.duration - original.duration) < 2e-9)
        }
        #expect(run.counter("keys") == 19)
        #expect(run.deferred == ["lazy"])
    }
}

@Suite struct DirtyMemoryTests {
    @Test func privateAndSharedDirtyAreAddedInBytes() {
        let text = """
            55a0d5a5e000-7ffd6c3f0000 ---p 00000000 00:00 0                          [rollup]
            Rss:               25120 kB
            Shared_Clean:       9000 kB
            Shared_Dirty:         12 kB
            Private_Clean:      1000 kB
            Private_Dirty:      5300 kB
            """
        #expect(ProcessMemory.dirtyBytes(smapsRollup: text) == (5300 + 12) * 1024)
        #expect(ProcessMemory.dirtyBytes(smapsRollup: "Rss: 1 kB") == nil)
        #expect(ProcessMemory.dirtyBytes(smapsRollup: "Private_Dirty: 99999999999999999999 kB\nShared_Dirty: 1 kB") == nil)
        #expect(ProcessMemory.dirtyBytes() ?? 1 > 0)  // This process has dirty pages (or no smaps_rollup).
    }
}

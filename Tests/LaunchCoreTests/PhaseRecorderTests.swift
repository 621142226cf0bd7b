import Testing
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PhaseRecorderTests {
    struct Boom: Error {}

    @Test func nestedPhasesRecordParentDepthAndContainment() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.phase("outer") {
            recorder.phase("inner") { usleep(2_000) }
            recorder.phase("second inner") {}
        }
        let phases = recorder.phaseRecords()
        #expect(phases.map(\.name) == ["outer", "inner", "second inner"])
        #expect(phases.map(\.depth) == [0, 1, 1])
        #expect(phases.map(\.parent) == [nil, 0, 0])
        #expect(phases[1].start >= phases[0].start)
        #expect(phases[1].end <= phases[0].end)
        #expect(phases[1].duration >= 0.002)
        #expect(phases[0].duration >= phases[1].duration + phases[2].duration)
    }

    @Test func sequentialPhasesAreOrderedInTime() {
        let recorder = PhaseRecorder(clock: .startNow())
        for name in ["a", "b", "c"] { recorder.phase(name) { usleep(500) } }
        let phases = recorder.phaseRecords()
        #expect(phases.map(\.name) == ["a", "b", "c"])
        for i in 1..<phases.count { #expect(phases[i].start >= phases[i - 1].end) }
    }

    @Test func endingAnOuterTokenClosesInnerPhases() {
        let recorder = PhaseRecorder(clock: .startNow())
        let outer = recorder.begin("outer")
        recorder.begin("left open")
        recorder.end(outer)
        #expect(recorder.openPhaseCount == 0)
        let phases = recorder.phaseRecords()
        #expect(abs(phases[0].end - phases[1].end) < 1e-9)
    }

    @Test func aThrowingBodyStillEndsItsPhase() {
        let recorder = PhaseRecorder(clock: .startNow())
        #expect(throws: Boom.self) { try recorder.phase("fails") { throw Boom() } }
        #expect(recorder.openPhaseCount == 0)
        #expect(recorder.phaseRecords().map(\.name) == ["fails"])
    }

    @Test func marksAndCountersAreKept() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.count("images decoded")
        recorder.count("pixels drawn", 100)
        recorder.count("images decoded", 2)
        recorder.mark("first frame")
        #expect(recorder.counterRecords() == [CounterRecord(name: "images decoded", value: 3), CounterRecord(name: "pixels drawn", value: 100)])
        #expect(recorder.markRecords().map(\.name) == ["first frame"])
        #expect(recorder.markRecords()[0].time >= 0)
    }

    @Test func runTotalEndsAtTheLastLaunchPhaseAndIgnoresAfterLaunchWork() {
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        recorder.phase("launch") { usleep(1_000) }
        recorder.recordingAfterLaunch = true
        recorder.phase("lazy") { usleep(5_000) }
        let run = RunRecord(clock: clock, recorders: [recorder], deferred: ["lazy"])
        #expect(run.total == run.phases[0].end)
        #expect(run.phases[1].afterLaunch)
        #expect(run.phases[1].start >= run.total)
        #expect(run.deferred == ["lazy"])
    }

    @Test func recordersOfSeveralThreadsMergeWithParentIndexesOffset() {
        let clock = LaunchClock.startNow()
        let main = PhaseRecorder(clock: clock, thread: 0)
        let worker = PhaseRecorder(clock: clock, thread: 1)
        main.phase("a") { main.phase("a1") {} }
        worker.phase("b") { worker.phase("b1") {} }
        worker.count("decoded", 2)
        main.count("decoded", 1)
        let run = RunRecord(clock: clock, recorders: [main, worker])
        #expect(run.phases.map(\.name) == ["a", "a1", "b", "b1"])
        #expect(run.phases.map(\.parent) == [nil, 0, nil, 2])
        #expect(run.phases.map(\.thread) == [0, 0, 1, 1])
        #expect(run.counter("decoded") == 3)
    }
}

/// `waiting`: a wait for another thread is recorded, and device emulation does not stretch it.
@Suite struct PhaseRecorderWaitTests {
    @Test func aWaitIsNotStretchedButWorkIs() throws {
        let recorder = PhaseRecorder(clock: LaunchClock.startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 100, .io: 100, .decode: 100, .draw: 100])
        func busy() { let end = MonotonicClock.threadCPUNanoseconds() + 2_000_000; while MonotonicClock.threadCPUNanoseconds() < end {} }
        recorder.phase("outer", kind: .cpu) {
            recorder.waiting("waiting for fonts") { busy() }
        }
        recorder.phase("work", kind: .cpu) { busy() }
        let phases = recorder.phaseRecords()
        let wait = try #require(phases.first { $0.name == "waiting for fonts" })
        let work = try #require(phases.first { $0.name == "work" })
        let outer = try #require(phases.first { $0.name == "outer" })
        #expect(wait.kind == nil && wait.depth == 1)
        // 2 ms of work stretched 100 times is at least 200 ms; the 2 ms wait stays far under that. The
        // sum with the phase before: on a busy machine a late end of `outer` is paid back by `work`.
        #expect(outer.duration + work.duration >= 0.199)
        #expect(wait.duration < 0.15)
    }
}

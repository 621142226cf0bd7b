import Testing
@testable import LaunchPipeline
@testable import LaunchCore
import LaunchManifest

/// `test.slowdown` of `cpuTime`: the share of CPU time added is the share asked, whatever the load
/// (CPU time leaves preemption out; the bounds are generous all the same).
@Suite struct CPUTimeSlowdownTests {
    /// About `nanoseconds` of the thread's CPU time spent computing.
    func work(_ nanoseconds: UInt64) -> UInt64 {
        let start = MonotonicClock.threadCPUNanoseconds()
        var x: UInt64 = 1
        while MonotonicClock.threadCPUNanoseconds() &- start < nanoseconds {
            for i in 0..<512 { x = x &* 31 &+ UInt64(i) }
        }
        return x
    }

    @Test func itAddsTheAskedShareOfTheWorksCPUTimeAndCountsIt() {
        let slowdown = CPUTimeSlowdown(fraction: 0.1)
        for _ in 0..<3 { _ = slowdown.timed { work(10_000_000) } }
        let share = Double(slowdown.addedNanoseconds) / Double(slowdown.workNanoseconds)
        #expect(slowdown.workNanoseconds >= 30_000_000)
        // At least the share (it computes until the CPU time has grown that much), and at most a few
        // readings' steps more (microseconds against 1 ms a part).
        #expect(share >= 0.1 && share < 0.12, "added \(share) of the work's CPU time, asked 0.1")
    }

    @Test func theStagesOwnWorkOutsideItsPhasesGrowsTooAndThePhasesAreNotCountedTwice() {
        let slowdown = CPUTimeSlowdown(fraction: 0.2)
        slowdown.beginStage()
        slowdown.phase { slowdown.timed { _ = work(6_000_000) } }
        _ = work(4_000_000)
        slowdown.endStage()
        // 6 ms in the phase and 4 ms of the stage's own: 10 ms of work. Counting the phase's added
        // 1.2 ms as the stage's own would make it 11.2.
        #expect(slowdown.workNanoseconds >= 10_000_000 && slowdown.workNanoseconds < 10_900_000, "\(slowdown.workNanoseconds) ns of work")
        let share = Double(slowdown.addedNanoseconds) / Double(slowdown.workNanoseconds)
        #expect(share >= 0.2 && share < 0.23, "added \(share), asked 0.2")
    }

    @Test func fractionZeroAddsNothing() {
        let slowdown = CPUTimeSlowdown(fraction: 0)
        #expect(slowdown.timed { 42 } == 42)
        #expect(slowdown.addedNanoseconds == 0)
    }

    /// One launch of the default fixture's stages (no snapshot), its drawing slowed as `test` says;
    /// returns the run and the drawing phase's CPU time.
    func launch(_ test: String?) throws -> (run: RunRecord, drawingCPU: Double) {
        try launchRecording(test, emulation: nil).result
    }

    /// The same on a recorder with `emulation` (and memory samples, as the app takes them on a tier).
    func launchRecording(_ test: String?, emulation: DeviceEmulation?) throws -> (result: (run: RunRecord, drawingCPU: Double), recorder: PhaseRecorder) {
        let fixture = Paths.packageRoot + "/Fixtures/default"
        let json = """
            {"name": "default", "theme": "\(fixture)/theme.xml", "assets": "\(fixture)/assets",
             "screen": {"width": 320, "height": 480, "scale": 1},
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}, {"name": "loading images", "run": "images"},
                        {"name": "drawing", "run": "draw"}]\(test.map { #", "test": {"slowdown": \#($0)}"# } ?? "")}
            """
        let path = Paths.temporaryDirectory() + "/manifest.json"
        try FileIO.writeAtomically(json, to: path)
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        recorder.recordsCounters = true
        recorder.emulation = emulation
        recorder.memorySamplingDepth = emulation == nil ? nil : 1
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: path), recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        let run = RunRecord(clock: clock, recorders: [recorder], deferred: [])
        let drawing = try #require(run.phases.first { $0.name == "drawing" }?.counters?.cpuTime)
        return ((run, drawing), recorder)
    }

    @Test func onATierWhatTheDrawingIsStretchedByIsWhatTheSlowdownTimes() throws {
        // As the app runs on a tier: counters, memory samples at depth ≤ 1, draw phases stretched.
        let (result, recorder) = try launchRecording(
            #"{"stage": "drawing", "fraction": 0.1, "of": "cpuTime"}"#, emulation: DeviceEmulation(factors: [.draw: 2]))
        let work = try #require(result.run.counter("test slowdown work nanoseconds"))
        let added = try #require(result.run.counter("test slowdown added nanoseconds"))
        let entries = UnsafeBufferPointer(start: recorder.state.pointee.entries, count: recorder.state.pointee.count)
        let drawingIndex = try #require(entries.firstIndex { $0.name == "drawing" && $0.depth == 0 })
        let children = entries.filter { Int($0.parent) == drawingIndex }
        #expect(children.map { $0.name } == ["background", "display", "keys"])
        let drawing = entries[drawingIndex]
        let stretched = drawing.stretchedSelfNanoseconds + children.map { $0.stretchedSelfNanoseconds }.reduce(0, +)
        // The recorder's own work around the children (counters, memory samples, readings), in the
        // same run: before, it was the drawing's self time, stretched and never slowed.
        let recordersWork = drawing.childCPUNanoseconds - children.map { $0.cpuNanoseconds }.reduce(0, +)
        let uncovered = Int(stretched) - work - added
        #expect(recordersWork > 0)
        // Left: the calls between the stage, the slowdown's spans and the recorder's (a third of the
        // recorder's work in a debug build). Before, the recorder's work and more were left.
        #expect(
            abs(uncovered) < Int(recordersWork),
            "stretched \(stretched) ns, slowed \(work) + \(added) ns; the recorder's work \(recordersWork) ns")
    }

    @Test func theDrawingsCPUTimeGrowsByTheFractionAndTheAppSaysByHowMuch() throws {
        let slowed = try launch(#"{"stage": "drawing", "fraction": 0.1, "of": "cpuTime"}"#)
        let work = try #require(slowed.run.counter("test slowdown work nanoseconds"))
        let added = try #require(slowed.run.counter("test slowdown added nanoseconds"))
        #expect(slowed.run.counter("test slowdown rows repeated") == nil)
        let share = Double(added) / Double(work)
        #expect(share >= 0.1 && share < 0.12, "added \(share) of the drawing's CPU time, asked 0.1")
        // The drawing phase's own CPU time holds the work and what was added.
        #expect(slowed.drawingCPU * 1e9 >= Double(work + added) * 0.99)

        // Against launches without the key, alternated: half again as much CPU time at 0.5 (the
        // median of five pairs; generous bounds, since a loaded machine moves CPU time a little too).
        var ratios: [Double] = []
        for _ in 0..<5 {
            let plain = try launch(nil).drawingCPU
            let half = try launch(#"{"stage": "drawing", "fraction": 0.5, "of": "cpuTime"}"#).drawingCPU
            ratios.append(half / plain)
        }
        let median = ratios.sorted()[2]
        #expect(median > 1.3 && median < 1.8, "the drawing's CPU time grew \(median)× at 0.5 (pairs: \(ratios))")
    }
}

import Testing
@testable import LaunchCore

/// Device emulation stretches a phase's work, never the recorder's own (reading counters, sampling
/// memory, the readings after a stretch's wait): a parent's self time leaves out all of what the
/// recorder does at its children's begin and end (``PhaseRecorder/ThreadTimes``).
@Suite struct EmulationOverheadTests {
    /// A recorder as the built-in app sets one up on a tier: counters on, memory sampled at depth ≤ 1,
    /// every kind stretched by `factor`.
    func recorder(factor: Double) -> PhaseRecorder {
        let recorder = PhaseRecorder(clock: LaunchClock.startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: factor, .draw: factor])
        recorder.recordsCounters = true
        recorder.memorySamplingDepth = 1
        return recorder
    }

    func entry(_ recorder: PhaseRecorder, _ index: Int) -> PhaseRecorder.Entry {
        recorder.state.pointee.entries[index]
    }

    @Test func aParentCountsItsChildWholeTheRecordersWorkAtItsBeginAndEndIncluded() {
        let recorder = recorder(factor: 2)
        recorder.phase("drawing", kind: .draw) {
            recorder.phase("background", kind: .draw) {}
        }
        let parent = entry(recorder, 0), child = entry(recorder, 1)
        // The child's recorded span starts after its memory sample and ends at its wait's end; the
        // parent's count of it also holds the sample, the counters and the readings around them.
        #expect(parent.childNanoseconds > child.end - child.start)
        #expect(parent.childCPUNanoseconds > child.cpuNanoseconds)
    }

    @Test func aParentWithoutWorkOfItsOwnIsNotStretchedForTheRecordersWork() {
        let recorder = recorder(factor: 2)
        recorder.phase("drawing", kind: .draw) {
            for _ in 0..<40 { recorder.phase("part", kind: .draw) {} }
        }
        let parent = entry(recorder, 0)
        // What the recorder did around the 40 children, in CPU time: the children counted whole,
        // less their own stretched spans. Before, all of it was the parent's self time and stretched.
        let children = (1...40).map { entry(recorder, $0) }
        let recordersWork = parent.childCPUNanoseconds - children.map(\.cpuNanoseconds).reduce(0, +)
        #expect(recordersWork > 0)
        // Left: the loop's own few instructions per child. CPU time, so preemption does not count;
        // the bound is a quarter of the recorder's work measured in the same run.
        #expect(
            parent.stretchedSelfNanoseconds < recordersWork / 4,
            "the parent was stretched for \(parent.stretchedSelfNanoseconds) ns of self time; the recorder's work was \(recordersWork) ns")
    }
}

import Testing
import LaunchCore

@Suite struct EmulationTests {
    /// Busy work of about `milliseconds` (spinning, so it is CPU time, not sleep).
    func spin(_ milliseconds: Double) {
        let end = MonotonicClock.nanoseconds() + UInt64(milliseconds * 1e6)
        var x: UInt64 = 1
        while MonotonicClock.nanoseconds() < end { x = x &* 6364136223846793005 &+ 1 }
        if x == 0 { print("") }
    }

    /// The median over five phases of wall time ÷ host time, so one preemption on a busy machine
    /// (the tests run in parallel) cannot decide the result.
    func medianRatio(_ recorder: PhaseRecorder, _ index: (Int) -> Int) -> Double {
        let phases = recorder.phaseRecords()
        let ratios = (0..<5).map { i -> Double in
            let phase = phases[index(i)]
            return phase.duration / max(phase.hostDuration ?? 0, 1e-9)
        }.sorted()
        return ratios[2]
    }

    @Test func factorTwoRoughlyDoublesWallTime() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 2])
        for _ in 0..<5 { recorder.phase("work", kind: .cpu) { spin(10) } }
        #expect(recorder.phaseRecords().allSatisfy { ($0.hostDuration ?? 0) > 0 })
        let ratio = medianRatio(recorder) { $0 }
        #expect(ratio > 1.6 && ratio < 2.6, "ratio \(ratio)")
    }

    @Test func nestedPhasesAreStretchedOnceByTheirOwnKind() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 1, .draw: 3])
        for _ in 0..<5 {
            recorder.phase("parent", kind: .cpu) {
                spin(5)
                recorder.phase("child", kind: .draw) { spin(5) }
            }
        }
        // Child: 5 ms × 3. Parent: its own 5 ms unscaled plus the child's 15 ms: about 2×, not 3×
        // (stretched twice it would be 4×). A preemption during a wait only lengthens it, so the
        // upper bounds leave room for a loaded machine (the suite runs beside Valgrind tests).
        let childRatio = medianRatio(recorder) { 2 * $0 + 1 }
        #expect(childRatio > 2.4 && childRatio < 4.2, "child ratio \(childRatio)")
        let parentRatio = medianRatio(recorder) { 2 * $0 }
        #expect(parentRatio > 1.6 && parentRatio < 3.2, "parent ratio \(parentRatio)")
    }

    @Test func phasesWithoutAKindInheritTheirParents() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.io: 2])
        for _ in 0..<5 { recorder.phase("io parent", kind: .io) { recorder.phase("unkinded") { spin(5) } } }
        let ratio = medianRatio(recorder) { 2 * $0 + 1 }
        #expect(ratio > 1.6 && ratio < 2.6, "ratio \(ratio)")
    }

    @Test func encodingRoundTripsAndFactorsNeverSpeedUp() {
        let emulation = DeviceEmulation(factors: [.cpu: 2.5, .draw: 0.5])
        #expect(emulation.factor(for: .draw) == 1)
        #expect(DeviceEmulation(encoded: emulation.encoded) == emulation)
        #expect(DeviceEmulation(encoded: "cpu=x") == nil)
        #expect(DeviceEmulation(encoded: "gpu=2") == nil)
        #expect(emulation.extraNanoseconds(for: .cpu, selfNanoseconds: 1000) == 1500)
    }
}

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

    @Test func factorTwoRoughlyDoublesWallTime() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 2])
        recorder.phase("work", kind: .cpu) { spin(20) }
        let phase = recorder.phaseRecords()[0]
        let host = phase.hostDuration ?? 0
        #expect(host > 0)
        let ratio = phase.duration / host
        #expect(ratio > 1.6 && ratio < 2.6, "ratio \(ratio)")
    }

    @Test func nestedPhasesAreStretchedOnceByTheirOwnKind() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 1, .draw: 3])
        recorder.phase("parent", kind: .cpu) {
            spin(10)
            recorder.phase("child", kind: .draw) { spin(10) }
        }
        let phases = recorder.phaseRecords()
        // Child: 10 ms × 3. Parent: its own 10 ms unscaled plus the child's 30 ms: about 40 ms, not 60.
        let childRatio = phases[1].duration / (phases[1].hostDuration ?? 1)
        #expect(childRatio > 2.4 && childRatio < 3.6, "child ratio \(childRatio)")
        let parentRatio = phases[0].duration / (phases[0].hostDuration ?? 1)
        #expect(parentRatio > 1.6 && parentRatio < 2.4, "parent ratio \(parentRatio)")
    }

    @Test func phasesWithoutAKindInheritTheirParents() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.io: 2])
        recorder.phase("io parent", kind: .io) { recorder.phase("unkinded") { spin(10) } }
        let child = recorder.phaseRecords()[1]
        let ratio = child.duration / (child.hostDuration ?? 1)
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

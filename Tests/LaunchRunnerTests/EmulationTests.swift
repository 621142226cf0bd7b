import Testing
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct EmulationTests {
    /// Busy work of `milliseconds` of this thread's CPU time (spinning, not sleeping): as much work
    /// however busy the machine is.
    func spin(_ milliseconds: Double) {
        let end = MonotonicClock.threadCPUNanoseconds() + UInt64(milliseconds * 1e6)
        var x: UInt64 = 1
        while MonotonicClock.threadCPUNanoseconds() < end { x = x &* 6364136223846793005 &+ 1 }
        if x == 0 { print("") }
    }

    /// The five phases' emulated time ÷ their CPU time (`cpuMilliseconds` each): the factor. The
    /// emulation gives back what a busy machine adds (the wait for a CPU inside a phase counts toward
    /// its extra time, a late end is paid by the next phase: docs/tiers.md), so the five add up to
    /// the factor however loaded the machine, give or take the last one's late end.
    func emulatedRatio(_ recorder: PhaseRecorder, cpuMilliseconds: Double, _ index: (Int) -> Int) -> Double {
        let phases = recorder.phaseRecords()
        return (0..<5).map { phases[index($0)].duration }.reduce(0, +) / (5 * cpuMilliseconds / 1000)
    }

    /// The least of the five phases' emulated time ÷ their CPU time: the phase a busy machine delayed
    /// least. A late end that the emulation could not pay back (the CI runs every suite at once on two
    /// cores) inflates the sum, never this one; a factor applied twice inflates every phase, this one too.
    func leastRatio(_ recorder: PhaseRecorder, cpuMilliseconds: Double, _ index: (Int) -> Int) -> Double {
        let phases = recorder.phaseRecords()
        return (0..<5).map { phases[index($0)].duration / (cpuMilliseconds / 1000) }.min()!
    }

    @Test func factorTwoAddsTheCPUTimeOnce() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 2])
        for _ in 0..<5 { recorder.phase("work", kind: .cpu) { spin(10) } }
        #expect(recorder.phaseRecords().allSatisfy { ($0.hostDuration ?? 0) > 0 })
        let ratio = emulatedRatio(recorder, cpuMilliseconds: 10) { $0 }
        #expect(ratio > 1.95, "emulated \(ratio) × the CPU time")
        // Under 3: the CPU time added once, not twice.
        let least = leastRatio(recorder, cpuMilliseconds: 10) { $0 }
        #expect(least < 2.9, "the least emulated phase \(least) × the CPU time")
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
        // Child: 5 ms × 3; stretched twice it would be 5 ms × 9 or more. The upper bound is read from
        // the child a busy machine delayed least (a late end inflates the sum, never that one).
        let child = emulatedRatio(recorder, cpuMilliseconds: 5) { 2 * $0 + 1 }
        #expect(child > 2.9, "child emulated \(child) × its CPU time")
        let leastChild = leastRatio(recorder, cpuMilliseconds: 5) { 2 * $0 + 1 }
        #expect(leastChild < 4.5, "the least emulated child \(leastChild) × its CPU time")
        // Parent: its own 5 ms unstretched (factor 1) besides the child; stretching the child again
        // would add 10 ms or more (a ratio of 3). The least of five is the one a busy machine delayed least.
        let phases = recorder.phaseRecords()
        let own = (0..<5).map { (phases[2 * $0].duration - phases[2 * $0 + 1].duration) / 0.005 }.min()!
        #expect(own > 0.9 && own < 2.9, "parent's own part \(own) × its CPU time")
    }

    @Test func phasesWithoutAKindInheritTheirParents() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.io: 2])
        for _ in 0..<5 { recorder.phase("io parent", kind: .io) { recorder.phase("unkinded") { spin(5) } } }
        // An io phase is stretched by its wall time less its wait for a CPU: 5 ms of spinning × 2.
        let ratio = emulatedRatio(recorder, cpuMilliseconds: 5) { 2 * $0 + 1 }
        #expect(ratio > 1.9, "emulated \(ratio) × the host time")
        let least = leastRatio(recorder, cpuMilliseconds: 5) { 2 * $0 + 1 }
        #expect(least < 2.9, "the least emulated phase \(least) × the host time")
    }

    /// Time the thread does not run — another thread holds the cores, or it sleeps — is not
    /// multiplied in a cpu, decode or draw phase; an io phase's wall time is.
    @Test func onlyCPUTimeIsStretchedExceptForIO() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 10, .io: 10])
        recorder.phase("sleeping cpu", kind: .cpu) { usleep(20_000) }
        recorder.phase("sleeping io", kind: .io) { usleep(20_000) }
        let phases = recorder.phaseRecords()
        // 20 ms of sleep: the cpu phase adds almost nothing, the io phase 9 × 20 ms.
        #expect(phases[0].duration < 0.1, "\(phases[0].duration)")
        #expect(phases[1].duration > 0.19, "\(phases[1].duration)")
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

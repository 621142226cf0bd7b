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

    /// The least, over five phases, of the emulation's added time ÷ `cpuMilliseconds`: the factor
    /// less one. The added time comes from CPU time, so a busy machine (the tests run in parallel)
    /// does not shorten it; a preemption during the added wait only lengthens it, so the least of
    /// five is the one nearest the emulation's own (a loaded CI pushed the median past the bound).
    func leastAdded(_ recorder: PhaseRecorder, cpuMilliseconds: Double, _ index: (Int) -> Int) -> Double {
        let phases = recorder.phaseRecords()
        let ratios = (0..<5).map { i -> Double in
            let phase = phases[index(i)]
            return (phase.duration - (phase.hostDuration ?? phase.duration)) / (cpuMilliseconds / 1000)
        }
        return ratios.min()!
    }

    @Test func factorTwoAddsTheCPUTimeOnce() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 2])
        for _ in 0..<5 { recorder.phase("work", kind: .cpu) { spin(10) } }
        #expect(recorder.phaseRecords().allSatisfy { ($0.hostDuration ?? 0) > 0 })
        let added = leastAdded(recorder, cpuMilliseconds: 10) { $0 }
        #expect(added > 0.95 && added < 1.6, "added \(added)")
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
        // Child: 5 ms × (3 − 1) added. Parent: nothing of its own added (factor 1), and the child's
        // 10 ms once (stretched twice it would be 20 ms or more, a ratio of 4: the upper bound sits
        // just below it, as far from 2 as a loaded machine's late wake-ups need).
        let child = leastAdded(recorder, cpuMilliseconds: 5) { 2 * $0 + 1 }
        #expect(child > 1.9 && child < 3.8, "child added \(child)")
        let parent = leastAdded(recorder, cpuMilliseconds: 5) { 2 * $0 }
        #expect(parent > 1.9 && parent < 3.8, "parent added \(parent)")
    }

    @Test func phasesWithoutAKindInheritTheirParents() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.io: 2])
        for _ in 0..<5 { recorder.phase("io parent", kind: .io) { recorder.phase("unkinded") { spin(5) } } }
        // An io phase is stretched by its wall time: the added time is once the host time, however busy the machine.
        let phases = recorder.phaseRecords()
        let ratios = (0..<5).map { i -> Double in
            let child = phases[2 * i + 1]
            let host = child.hostDuration ?? child.duration
            return (child.duration - host) / max(host, 1e-9)
        }.sorted()
        #expect(ratios[2] > 0.9 && ratios[2] < 1.6, "added \(ratios[2]) × the host time")
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

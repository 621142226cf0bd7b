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
    /// its extra time, a late end is paid by the next phase: docs/tiers.md), so the five add up to at
    /// least the factor however loaded the machine.
    func emulatedRatio(_ recorder: PhaseRecorder, cpuMilliseconds: Double, _ index: (Int) -> Int) -> Double {
        let phases = recorder.phaseRecords()
        return (0..<5).map { phases[index($0)].duration }.reduce(0, +) / (5 * cpuMilliseconds / 1000)
    }

    /// Runs `body` and returns how long this thread waited for a CPU meanwhile (``ThreadRunDelay``),
    /// in seconds: what a loaded machine added to the phases, which the emulation gives back rather
    /// than stretches. An upper bound on the emulated time holds once it is taken out, however busy
    /// the machine (on a quiet one it is about 0, and the bound is as tight as the factor).
    func runDelay(_ body: () -> Void) -> Double {
        let delay = ThreadRunDelay()
        let before = delay.nanoseconds()
        body()
        return Double(delay.nanoseconds() &- before) / 1e9
    }

    /// The slack an upper bound allows per phase besides the factor: the recorder's own work and a
    /// sleep's timer slack (a late wake-up on a busy machine is in the run delay).
    let slackPerPhase = 0.0005

    @Test func factorTwoAddsTheCPUTimeOnce() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 2])
        let delayed = runDelay { for _ in 0..<5 { recorder.phase("work", kind: .cpu) { spin(10) } } }
        #expect(recorder.phaseRecords().allSatisfy { ($0.hostDuration ?? 0) > 0 })
        let ratio = emulatedRatio(recorder, cpuMilliseconds: 10) { $0 }
        #expect(ratio > 1.95, "emulated \(ratio) × the CPU time")
        // Under 3 once the machine's own delay is out: the CPU time added once, not twice.
        let total = recorder.phaseRecords().map(\.duration).reduce(0, +)
        let stretched = (total - delayed - 5 * slackPerPhase) / 0.05
        #expect(stretched < 2.9, "emulated \(stretched) × the CPU time, less \(delayed) s of waiting for a CPU")
    }

    @Test func nestedPhasesAreStretchedOnceByTheirOwnKind() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 1, .draw: 3])
        let delayed = runDelay {
            for _ in 0..<5 {
                recorder.phase("parent", kind: .cpu) {
                    spin(5)
                    recorder.phase("child", kind: .draw) { spin(5) }
                }
            }
        }
        // Child: 5 ms × 3; stretched twice it would be 5 ms × 9 or more.
        let child = emulatedRatio(recorder, cpuMilliseconds: 5) { 2 * $0 + 1 }
        #expect(child > 2.9, "child emulated \(child) × its CPU time")
        let phases = recorder.phaseRecords()
        let children = (0..<5).map { phases[2 * $0 + 1].duration }.reduce(0, +)
        let parents = (0..<5).map { phases[2 * $0].duration }.reduce(0, +)
        let stretchedChild = (children - delayed - 5 * slackPerPhase) / 0.025
        #expect(stretchedChild < 4.5, "child emulated \(stretchedChild) × its CPU time, less the wait for a CPU")
        // Parent: its own 5 ms unstretched (factor 1) besides the child; stretching the child again
        // would add 10 ms or more a phase (a ratio of 3).
        let own = (parents - children) / 0.025
        #expect(own > 0.9, "parent's own part \(own) × its CPU time")
        let ownStretched = (parents - children - delayed - 5 * slackPerPhase) / 0.025
        #expect(ownStretched < 2.9, "parent's own part \(ownStretched) × its CPU time, less the wait for a CPU")
    }

    @Test func phasesWithoutAKindInheritTheirParents() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.io: 2])
        let delayed = runDelay {
            for _ in 0..<5 { recorder.phase("io parent", kind: .io) { recorder.phase("unkinded") { spin(5) } } }
        }
        // An io phase is stretched by its wall time less its wait for a CPU: 5 ms of spinning × 2.
        let ratio = emulatedRatio(recorder, cpuMilliseconds: 5) { 2 * $0 + 1 }
        #expect(ratio > 1.9, "emulated \(ratio) × the host time")
        let total = (0..<5).map { recorder.phaseRecords()[2 * $0 + 1].duration }.reduce(0, +)
        let stretched = (total - delayed - 5 * slackPerPhase) / 0.025
        #expect(stretched < 2.9, "emulated \(stretched) × the host time, less the wait for a CPU")
    }

    /// Time the thread does not run — another thread holds the cores, or it sleeps — is not
    /// multiplied in a cpu, decode or draw phase; an io phase's wall time is.
    @Test func onlyCPUTimeIsStretchedExceptForIO() {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 10, .io: 10])
        let delayed = runDelay {
            recorder.phase("sleeping cpu", kind: .cpu) { usleep(20_000) }
            recorder.phase("sleeping io", kind: .io) { usleep(20_000) }
        }
        let phases = recorder.phaseRecords()
        // 20 ms of sleep: the cpu phase adds almost nothing, the io phase 9 × 20 ms (less what a busy
        // machine made the thread wait for a CPU: given back, not stretched).
        #expect(phases[0].duration < 0.1, "\(phases[0].duration)")
        #expect(phases[1].duration + delayed > 0.19, "\(phases[1].duration) s, \(delayed) s waiting for a CPU")
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

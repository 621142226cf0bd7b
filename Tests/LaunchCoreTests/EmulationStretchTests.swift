import Testing
@testable import LaunchCore

/// Device emulation on a busy host: the wait for a CPU is given back, not stretched, and a late wait
/// is paid back by the next one (``PhaseRecorder/wait(extra:alreadyWaited:debt:)``, ``ThreadRunDelay``).
@Suite struct EmulationStretchTests {
    @Test func aQuietPhaseWaitsItsWholeExtraTime() {
        let plan = PhaseRecorder.wait(extra: 9_000_000, alreadyWaited: 0, debt: 0)
        #expect(plan.wait == 9_000_000 && plan.debt == 0)
    }

    @Test func timeSpentWaitingForACPUCountsTowardTheExtraTime() {
        // 9 ms to add; the phase was preempted for 2 ms of it already.
        let plan = PhaseRecorder.wait(extra: 9_000_000, alreadyWaited: 2_000_000, debt: 0)
        #expect(plan.wait == 7_000_000 && plan.debt == 0)
    }

    @Test func anEarlierLateWaitIsPaidBackFirst() {
        let plan = PhaseRecorder.wait(extra: 9_000_000, alreadyWaited: 1_000_000, debt: 3_000_000)
        #expect(plan.wait == 5_000_000 && plan.debt == 0)
    }

    @Test func whatCannotBePaidNowIsCarriedToTheNextStretch() {
        let plan = PhaseRecorder.wait(extra: 1_000_000, alreadyWaited: 500_000, debt: 4_000_000)
        #expect(plan.wait == 0 && plan.debt == 3_500_000)
    }

    @Test func theRunDelayIsTheSecondNumberOfSchedstat() {
        func parse(_ text: String) -> UInt64 {
            Array(text.utf8).withUnsafeBytes { ThreadRunDelay.secondNumber($0) }
        }
        #expect(parse("31503361 40239940 8\n") == 40_239_940)
        #expect(parse("5 17") == 17)
        #expect(parse("5\n") == 0)
        #expect(parse("") == 0)
    }

    @Test func theThreadsRunDelayNeverGoesBackwards() {
        let reader = ThreadRunDelay()
        defer { reader.close() }
        let first = reader.nanoseconds()
        var x: UInt64 = 0
        for i in 0..<1_000_000 { x &+= UInt64(i) &* 31 }
        #expect(x != 1)
        #expect(reader.nanoseconds() >= first)
        #if os(Linux)
        #expect(reader.isAvailable)
        #endif
    }

    @Test func aStretchedPhaseStillLastsItsEmulatedTime() throws {
        let recorder = PhaseRecorder(clock: LaunchClock.startNow())
        recorder.emulation = DeviceEmulation(factors: [.cpu: 50])
        func busy() { let end = MonotonicClock.threadCPUNanoseconds() + 2_000_000; while MonotonicClock.threadCPUNanoseconds() < end {} }
        recorder.phase("first", kind: .cpu) { busy() }
        recorder.phase("second", kind: .cpu) { busy() }
        let phases = recorder.phaseRecords()
        // 2 ms of CPU × 50 each: however the host was loaded, the two add up to at least 2 × 100 ms
        // less what the first one's late end lent the second (a wait is late by far less than 100 ms).
        let total = phases.map(\.duration).reduce(0, +)
        #expect(total >= 0.199)
        #expect(phases.allSatisfy { $0.duration >= 0.05 })
    }
}

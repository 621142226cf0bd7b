import Testing
@testable import LaunchCore

/// A run on a device tier stretched at the clock it runs at: the factors hold at the calibration's
/// clock, the run reads its own while its waits spin (``ClockTries``), and a phase lasts its work
/// times the factor times the run's clock over the calibration's (``DeviceEmulation``).
@Suite struct EmulationClockTests {
    /// 8 × 2^17 cycles at `gigahertz`, in nanoseconds, agreeing.
    func probe(_ gigahertz: Double, cpu: Double? = nil) -> ClockProbe.Try {
        let wall = UInt64((Double(ClockProbe.cycles) / gigahertz).rounded())
        return ClockProbe.Try(wall: wall, cpu: cpu.map { UInt64((Double(ClockProbe.cycles) / $0).rounded()) } ?? wall)
    }

    @Test func aSlowerClockStretchesLessSoTheDeviceKeepsItsSpeed() {
        let emulation = DeviceEmulation(factors: [.cpu: 10], clockGigahertz: 4)
        // 1 ms of work at 4 GHz is 10 ms on the device; at 3.6 GHz the same work took 1.111 ms, whose
        // cycles are still 10 ms on the device: 10 × 0.9 = 9 times the work, 8 of it waited.
        #expect(emulation.extraNanoseconds(for: .cpu, selfNanoseconds: 1_000_000, atClock: 4) == 9_000_000)
        #expect(emulation.extraNanoseconds(for: .cpu, selfNanoseconds: 1_000_000, atClock: 3.6) == 8_000_000)
        #expect(emulation.extraNanoseconds(for: .cpu, selfNanoseconds: 1_000_000, atClock: 4.4) == 10_000_000)
    }

    @Test func anUnknownClockOrAMisreadingScalesNothing() {
        let emulation = DeviceEmulation(factors: [.cpu: 10], clockGigahertz: 4)
        #expect(emulation.extraNanoseconds(for: .cpu, selfNanoseconds: 1_000_000, atClock: nil) == 9_000_000)
        // Over twice or under half the calibration's clock: a misreading.
        #expect(emulation.extraNanoseconds(for: .cpu, selfNanoseconds: 1_000_000, atClock: 9) == 9_000_000)
        #expect(emulation.extraNanoseconds(for: .cpu, selfNanoseconds: 1_000_000, atClock: 1.9) == 9_000_000)
        // Factors that hold at any clock (a tier with fixed factors) are never scaled.
        let fixed = DeviceEmulation(factors: [.cpu: 10])
        #expect(fixed.extraNanoseconds(for: .cpu, selfNanoseconds: 1_000_000, atClock: 3) == 9_000_000)
    }

    @Test func theHostIsNeverMadeFaster() {
        let emulation = DeviceEmulation(factors: [.cpu: 1.05, .io: 1], clockGigahertz: 4)
        #expect(emulation.extraNanoseconds(for: .cpu, selfNanoseconds: 1_000_000, atClock: 3.6) == 0)
        #expect(emulation.extraNanoseconds(for: .io, selfNanoseconds: 1_000_000, atClock: 4.4) == 0)
    }

    @Test func theClockTravelsWithTheFactorsAndAMisreadOneIsRefused() throws {
        let emulation = DeviceEmulation(factors: [.cpu: 2.5, .draw: 3], clockGigahertz: 4.25)
        #expect(emulation.encoded.hasSuffix(",clock=4.25"))
        let decoded = try #require(DeviceEmulation(encoded: emulation.encoded))
        #expect(decoded == emulation && decoded.clockGigahertz == 4.25)
        #expect(DeviceEmulation(encoded: "cpu=2,clock=0") == nil)
        #expect(DeviceEmulation(encoded: "cpu=2,clock=25") == nil)
        #expect(DeviceEmulation(encoded: "cpu=2,clock=fast") == nil)
        // No clock: the form of before.
        #expect(!DeviceEmulation(factors: [.cpu: 2]).encoded.contains("clock"))
        #expect(DeviceEmulation(factors: [.cpu: 2], clockGigahertz: 40).clockGigahertz == nil)
    }

    @Test func theTriesKeepTheFastestAgreeingOnesInOrder() {
        var tries = ClockTries()
        tries.add(probe(4.0, cpu: 6.0))  // the clocks disagree: refused
        #expect(tries.confirmed == nil)
        for step in 0...60 { tries.add(probe(3 + Double(step) * 0.02)) }
        #expect(tries.fastest.count == ClockTries.kept)
        #expect(tries.fastest == tries.fastest.sorted())
        #expect(tries.fastest.first == probe(4.2).wall)
        // 4.2 and 4.18 GHz are within 1% of each other: the fastest is confirmed.
        #expect(tries.confirmed == probe(4.2).wall)
    }

    @Test func aLoneFastTryIsNotConfirmed() {
        var tries = ClockTries()
        for gigahertz in [6.1, 4.2, 4.19, 3.9] { tries.add(probe(gigahertz)) }
        #expect(tries.confirmed == probe(4.2).wall)
        var lone = ClockTries()
        for gigahertz in [4.2, 3.9, 3.5] { lone.add(probe(gigahertz)) }
        #expect(lone.confirmed == nil)
    }

    @Test func aTryStartsOnlyWhereItEndsBeforeTheDeadline() {
        var tries = ClockTries()
        #expect(tries.neededNanoseconds == ClockTries.firstTryNanoseconds)
        tries.add(probe(4.0))
        #expect(tries.neededNanoseconds == UInt64(Double(probe(4.0).wall) * ClockTries.margin))
    }

    /// The spin ends at its deadline (a try that starts ends before it, unless the thread is
    /// preempted), and what it reads for the process is a clock a CPU can have.
    @Test func theSpinReadsTheClockForTheProcess() {
        var tries = ClockTries()
        let deadline = MonotonicClock.nanoseconds() + 20_000_000
        tries.spin(until: deadline)
        #expect(MonotonicClock.nanoseconds() >= deadline)
        if let wall = tries.confirmed {
            let process = ClockTries.processGigahertz ?? 0
            #expect(process >= ClockProbe.gigahertz(wall: wall))
            #expect(ClockProbe.plausibleGigahertz.contains(process))
        }
    }

    /// The app says the clock it stretched at in an `x-clock` line, when its waits read one.
    @Test func theClockLineSaysTheProcesssClock() {
        let lines = ProtocolWriter.clock()
        if let clock = ClockTries.processGigahertz {
            #expect(lines == ["x-clock \(clock)"])
        } else {
            #expect(lines.isEmpty)
        }
    }
}

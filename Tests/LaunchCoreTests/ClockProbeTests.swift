import Testing
@testable import LaunchCore

/// The clock probe (not a workload): eight dependent additions an iteration, so its time counts
/// cycles; a reading is the fastest try another confirms.
@Suite struct ClockProbeTests {
    /// The chain really adds eight times an iteration (an assembler block that added fewer times, or
    /// none, would time fewer cycles than the probe counts).
    @Test func chainAddsEightTimesAnIteration() {
        #expect(ClockProbe.chain(0) == 1)
        #expect(ClockProbe.chain(1) == 1)
        #expect(ClockProbe.chain(4) == 1 + 8 * (0 + 1 + 2 + 3))
        #expect(ClockProbe.chain(1000) == 1 + 8 * (999 * 1000 / 2))
    }

    /// Tries of a probe at `gigahertz`, timed alike by both clocks.
    func tries(_ gigahertz: [Double]) -> [ClockProbe.Try] {
        gigahertz.map {
            let ns = UInt64((Double(ClockProbe.cycles) / $0).rounded()); return ClockProbe.Try(wall: ns, cpu: ns)
        }
    }

    /// The reading is the fastest try that another confirms within 1%, timed by the wall clock.
    @Test func theFastestConfirmedTryIsTheReading() throws {
        let reading = try #require(ClockProbe.reading(of: tries([4.0, 4.2, 3.9, 4.19, 4.1])))
        #expect(abs(reading - 4.2) < 0.001)
    }

    /// A lone fast try is refused, however it came about (4.2 GHz tries with one at 6.13).
    @Test func aLoneFastTryIsRefused() throws {
        let reading = try #require(ClockProbe.reading(of: tries([4.2, 6.13, 4.19, 4.1])))
        #expect(abs(reading - 4.2) < 0.001)
    }

    /// A try whose CPU time reads short of its wall time (the kernel took a hypervisor's stop out
    /// of it, more than the try lost) is not timed by either clock: it is left out.
    @Test func aTryWhoseClocksDisagreeIsLeftOut() throws {
        var all = tries([4.2, 4.19, 4.1])
        all.append(ClockProbe.Try(wall: 250_000, cpu: 171_000))  // 6.13 GHz by CPU time, 4.19 by wall
        all.append(ClockProbe.Try(wall: 171_000, cpu: 250_000))  // and the other way round
        let reading = try #require(ClockProbe.reading(of: all))
        #expect(abs(reading - 4.2) < 0.001)
        // A preempted try (wall well over CPU time) is left out too, rather than read slow.
        #expect(ClockProbe.reading(of: [ClockProbe.Try(wall: 900_000, cpu: 250_000), ClockProbe.Try(wall: 900_000, cpu: 250_000)]) == nil)
    }

    /// Disturbed throughout: no reading rather than a wrong one.
    @Test func aProbeWithNoConfirmedTryReadsNothing() {
        #expect(ClockProbe.reading(of: tries([4.2])) == nil)
        #expect(ClockProbe.reading(of: tries([4.2, 3.9, 3.5])) == nil)
        #expect(ClockProbe.reading(of: []) == nil)
        #expect(ClockProbe.reading(of: [ClockProbe.Try(wall: 0, cpu: 0), ClockProbe.Try(wall: 0, cpu: 0)]) == nil)
    }
}

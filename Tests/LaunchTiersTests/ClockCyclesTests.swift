import LaunchCore
import Testing

@testable import LaunchTiers

/// A calibration counted in the core's clock cycles (docs/tiers.md, "Counted in clock cycles"): it
/// holds still while the host's clock moves, and a run turns it into seconds at the clock it reads.
@Suite struct ClockCyclesTests {
    /// A process that did `cycles` (by kind, in millions) at `gigahertz`.
    func process(_ megacycles: [PhaseKind: Double], at gigahertz: Double?) -> HostReference {
        HostReference(seconds: megacycles.mapValues { $0 * 1e6 / ((gigahertz ?? 4) * 1e9) }, clockGigahertz: gigahertz)
    }

    let work: [PhaseKind: Double] = [.cpu: 3.0, .io: 1.0, .decode: 5.0, .draw: 22.0]

    @Test func eachKindIsTheFewestCyclesAtTheMedianClock() throws {
        let slowed = work.mapValues { $0 * 1.2 }
        // The same work at three clocks, one process slowed by other work (more cycles), one that read no clock.
        let samples = [process(work, at: 4.4), process(work, at: 4.0), process(slowed, at: 4.2), process(work.mapValues { $0 / 2 }, at: nil)]
        let combined = Calibration.combine(samples)
        let clock = try #require(combined.clockGigahertz)
        #expect(clock == 4.2, "the median of the clocks read; a process without one is left out")
        for kind in PhaseKind.allCases {
            let cycles = try #require(combined.cycles(kind))
            #expect(abs(cycles / (work[kind]! * 1e6) - 1) < 1e-12, "the fewest cycles, not the fastest seconds (\(kind))")
        }
        #expect(Calibration.combine(samples.reversed()) == combined, "order does not matter")
    }

    /// Two calibrations of the same host made while its clock ran 10% apart differ by 10% in seconds,
    /// and not at all once a run turns each into seconds at the clock it reads.
    @Test func calibrationsMadeAtOtherClocksAgreeAtTheRunsClock() throws {
        let fast = Calibration.combine([process(work, at: 4.4), process(work, at: 4.4)])
        let slow = Calibration.combine([process(work, at: 4.0), process(work, at: 4.0)])
        #expect(abs(slow.seconds[.draw]! / fast.seconds[.draw]! - 1.1) < 1e-9)
        for kind in PhaseKind.allCases {
            #expect(abs(fast.at(clock: 4.2).seconds[kind]! / slow.at(clock: 4.2).seconds[kind]! - 1) < 1e-12)
        }
        #expect(HostReference(seconds: [.cpu: 1]).at(clock: 4.2) == HostReference(seconds: [.cpu: 1]), "no clock of its own: as it is")
    }

    /// Without any clock a calibration is the fastest seconds, and has no clock: runs then use it as it is.
    @Test func withoutAnyClockTheFastestSecondsAndNoClock() {
        let combined = Calibration.combine([process(work, at: nil), process(work.mapValues { $0 * 2 }, at: nil)])
        #expect(combined.clockGigahertz == nil)
        #expect(combined.seconds == process(work, at: nil).seconds)
    }

    static let info = CalibrationInfo(
        made: "2026-11-26T06:00:00Z", referenceVersion: 2, processes: 10, source: "cache", host: "0123456789abcdef", clockGigahertz: 4.4)

    func resolve(_ calibrated: HostReference, clock: Double?, probes: inout Int) throws -> ResolvedTier {
        var calls = 0
        defer { probes = calls }
        return try ResolvedTier.resolve(
            named: "iphone-3gs", tiersFile: nil, calibration: (calibrated, Self.info),
            clock: {
                calls += 1
                return clock
            }, hostCalibration: { fatalError("the calibration is given") })
    }

    /// A run reads the clock: at a clock 10% slower than the calibration's its references take 10%
    /// longer, its factors are 10% smaller, and the result records that clock; the calibration it
    /// records is recovered as it was (what `check` reuses from a baseline).
    @Test func aRunScalesTheFactorsByTheClockItReads() throws {
        let calibrated = Calibration.combine([process(work, at: 4.4)])
        var probes = 0
        let atCalibration = try resolve(calibrated, clock: 4.4, probes: &probes)
        let slower = try resolve(calibrated, clock: 4.0, probes: &probes)
        #expect(probes == 1)
        #expect(slower.info.clockGigahertz == 4.0 && atCalibration.info.clockGigahertz == 4.4)
        for kind in PhaseKind.allCases where atCalibration.factors[kind]! > 1.1 {
            #expect(abs(atCalibration.factors[kind]! / slower.factors[kind]! - 1.1) < 1e-9, "\(kind)")
        }
        let recovered = try #require(ResolvedTier.calibration(of: slower.info))
        #expect(recovered.clockGigahertz == 4.4)
        for kind in PhaseKind.allCases { #expect(abs(recovered.seconds[kind]! / calibrated.seconds[kind]! - 1) < 1e-12) }
    }

    /// A clock that cannot be read now leaves the calibration's seconds as they are (and no clock in
    /// the result); a calibration without a clock is never scaled, and the clock is not even read.
    @Test func anUnreadClockOrAClocklessCalibrationIsNotScaled() throws {
        let calibrated = Calibration.combine([process(work, at: 4.4)])
        var probes = 0
        let unread = try resolve(calibrated, clock: nil, probes: &probes)
        #expect(probes == 1 && unread.info.clockGigahertz == nil)
        #expect(unread.info.hostReference == calibrated.seconds)
        #expect(ResolvedTier.calibration(of: unread.info) == calibrated)
        let clockless = HostReference(seconds: calibrated.seconds)
        let plain = try resolve(clockless, clock: 3.0, probes: &probes)
        #expect(probes == 0 && plain.info.clockGigahertz == nil && plain.info.hostReference == clockless.seconds)
    }
}

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

    /// Two calibrations of the same host made while its clock ran 10% apart differ by 10% in seconds
    /// at their own clocks, and not at all at one clock (the anchor a calibration measured again keeps).
    @Test func calibrationsMadeAtOtherClocksAgreeAtOneClock() throws {
        let fast = Calibration.combine([process(work, at: 4.4), process(work, at: 4.4)])
        let slow = Calibration.combine([process(work, at: 4.0), process(work, at: 4.0)])
        #expect(abs(slow.seconds[.draw]! / fast.seconds[.draw]! - 1.1) < 1e-9)
        let anchored = Calibration.combine([process(work, at: 4.0), process(work, at: 4.0)], atClock: 4.4)
        #expect(anchored.clockGigahertz == 4.4)
        for kind in PhaseKind.allCases { #expect(abs(anchored.seconds[kind]! / fast.seconds[kind]! - 1) < 1e-12, "\(kind)") }
    }

    /// Without any clock a calibration is the fastest seconds, and has no clock (an anchor alone cannot count cycles).
    @Test func withoutAnyClockTheFastestSecondsAndNoClock() {
        let samples = [process(work, at: nil), process(work.mapValues { $0 * 2 }, at: nil)]
        for combined in [Calibration.combine(samples), Calibration.combine(samples, atClock: 4.4)] {
            #expect(combined.clockGigahertz == nil)
            #expect(combined.seconds == process(work, at: nil).seconds)
        }
    }

    /// `tiers --calibrate` over a usable cache measures the cycles again and keeps the cache's clock:
    /// the same work measured while the host's clock ran 10% slower gives the same seconds; a
    /// calibration measured because the cache was missing or unusable takes its own processes' clock.
    @Test func aCalibrationMeasuredAgainKeepsTheHostsClock() throws {
        let home = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-xdg-")
        defer { FileIO.removeTree(home) }
        let cache = try #require(CalibrationCache(environment: ["XDG_CACHE_HOME": home]))
        let host = HostFingerprint(cpuModel: "Test CPU", cores: 2, kernel: "Linux 6.1.0", architecture: "x86_64", referenceVersion: 2)
        func calibrator(at gigahertz: Double) -> Calibrator {
            var calibrator = Calibrator(cache: cache, fingerprint: host, now: { "2026-11-26T18:00:00Z" }, sample: { self.process(self.work, at: gigahertz) })
            calibrator.processes = 3
            return calibrator
        }
        let first = try calibrator(at: 4.4).calibration()
        #expect(first.source == "measured" && first.calibration.reference.clockGigahertz == 4.4)
        let again = try calibrator(at: 4.0).calibration(refresh: true)
        #expect(again.source == "measured" && again.calibration.reference.clockGigahertz == 4.4)
        #expect(again.info.clockGigahertz == 4.4)
        for kind in PhaseKind.allCases {
            #expect(abs(again.calibration.reference.seconds[kind]! / first.calibration.reference.seconds[kind]! - 1) < 1e-12, "\(kind)")
        }
        #expect(again.calibration.samples.allSatisfy { $0.clockGigahertz == 4.0 }, "each process's own clock is kept beside its times")
        #expect(try calibrator(at: 4.0).calibration() == Calibrator.Outcome(calibration: again.calibration, source: "cache", note: nil))
        FileIO.removeTree(home + "/launchprof")
        let fresh = try calibrator(at: 4.0).calibration()
        #expect(fresh.calibration.reference.clockGigahertz == 4.0, "no cache: its own processes' clock")
    }
}

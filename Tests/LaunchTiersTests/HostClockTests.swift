import LaunchCore
import Testing
@testable import LaunchTiers

/// The clock probe (not a workload): eight dependent additions an iteration, so its time counts cycles.
@Suite struct HostClockTests {
    /// The chain really adds eight times an iteration (an assembler block that added fewer times, or
    /// none, would time fewer cycles than the probe counts).
    @Test func chainAddsEightTimesAnIteration() {
        #expect(HostClock.chain(0) == 1)
        #expect(HostClock.chain(1) == 1)
        #expect(HostClock.chain(4) == 1 + 8 * (0 + 1 + 2 + 3))
        #expect(HostClock.chain(1000) == 1 + 8 * (999 * 1000 / 2))
    }

    /// The clock it reports is a clock a CPU can have (timed by CPU time, so load does not move it
    /// out of this range; nothing here waits for a deadline).
    @Test func gigahertzIsPlausible() throws {
        let clock = try #require(HostClock.gigahertz(tries: 5))
        #expect(clock > 0.05 && clock < 20)
    }

    /// A sample's clock travels from the sample process (its JSON line) to the cache file and back,
    /// and stays out of the combined reference (no factor depends on it); a file without one reads as
    /// before, and a nonsense clock reads as unknown rather than failing the calibration.
    @Test func theClockIsCarriedBesideTheTimesNotInThem() throws {
        let seconds: [PhaseKind: Double] = [.cpu: 0.0007, .io: 0.002, .decode: 0.0011, .draw: 0.005]
        let sample = HostReference(seconds: seconds, clockGigahertz: 4.25)
        #expect(try HostReference(jsonLine: Array(sample.jsonLine.utf8)) == sample)
        #expect(try HostReference(jsonLine: Array(#"{"cpu": 1, "io": 1, "decode": 1, "draw": 1, "clock": -3}"#.utf8)).clockGigahertz == nil)
        let combined = Calibration.combine([sample, HostReference(seconds: seconds, clockGigahertz: 3.9)])
        #expect(combined.clockGigahertz == nil)
        #expect(combined.seconds == seconds)
        let host = HostFingerprint(cpuModel: "Test CPU", cores: 2, kernel: "Linux 6.1.0", architecture: "x86_64", referenceVersion: 1)
        let calibration = Calibration(reference: combined, fingerprint: host, made: "2026-11-26T06:00:00Z", samples: [sample, HostReference(seconds: seconds)])
        let decoded = try CalibrationCache.decode(Array(CalibrationCache.encode(calibration).utf8))
        #expect(decoded == calibration)
        #expect(decoded.samples.map(\.clockGigahertz) == [4.25, nil])
    }

    /// The range of clocks a calibration's processes saw, only when every process recorded one.
    @Test func aCalibrationsClockRangeNeedsEveryProcesssClock() {
        let seconds: [PhaseKind: Double] = [.cpu: 1, .io: 1, .decode: 1, .draw: 1]
        let host = HostFingerprint(cpuModel: "Test CPU", cores: 2, kernel: "Linux 6.1.0", architecture: "x86_64", referenceVersion: 1)
        func calibration(_ clocks: [Double?]) -> Calibration {
            Calibration(
                reference: HostReference(seconds: seconds), fingerprint: host, made: "now",
                samples: clocks.map { HostReference(seconds: seconds, clockGigahertz: $0) })
        }
        let range = calibration([4.3, 4.1, 4.5]).clockRange
        #expect(range?.slowest == 4.1 && range?.fastest == 4.5)
        #expect(calibration([4.3, nil]).clockRange == nil)
        #expect(calibration([nil]).clockRange == nil)
    }
}

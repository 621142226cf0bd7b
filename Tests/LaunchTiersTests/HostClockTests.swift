import LaunchCore
import Testing
@testable import LaunchTiers

/// The core's clock read beside a calibration (``HostClock``) and kept with it.
@Suite struct HostClockTests {
    /// The clock it reports is a clock a CPU can have (timed by CPU time, so load does not move it
    /// out of this range; nothing here waits for a deadline).
    /// Under load a probe can be disturbed throughout (no reading), so it is tried until one reads.
    @Test func gigahertzIsPlausible() throws {
        let clock = try #require((0..<200).lazy.compactMap { _ in HostClock.gigahertz(tries: 40) }.first)
        #expect(clock > 0.05 && clock < 20)
    }

    /// A sample's clock travels from the sample process (its JSON line) to the cache file and back;
    /// a nonsense clock reads as unknown rather than failing the calibration.
    @Test func theClockTravelsWithEachSample() throws {
        let seconds: [PhaseKind: Double] = [.cpu: 0.0007, .io: 0.002, .decode: 0.0011, .draw: 0.005]
        let sample = HostReference(seconds: seconds, clockGigahertz: 4.25)
        #expect(try HostReference(jsonLine: Array(sample.jsonLine.utf8)) == sample)
        #expect(try HostReference(jsonLine: Array(#"{"cpu": 1, "io": 1, "decode": 1, "draw": 1, "clock": -3}"#.utf8)).clockGigahertz == nil)
        // A clock no core can have, or not a number, is unknown; the range's ends are kept.
        for (clock, kept) in [("999", nil), ("0.01", nil), ("1e308", nil), (#""4.2""#, nil), ("null", nil), ("0.05", 0.05), ("20", 20.0)] as [(String, Double?)]
        {
            let line = #"{"cpu": 1, "io": 1, "decode": 1, "draw": 1, "clock": "# + clock + "}"
            #expect(try HostReference(jsonLine: Array(line.utf8)).clockGigahertz == kept, "\(clock)")
        }
        let samples = [sample, HostReference(seconds: seconds, clockGigahertz: 3.9), HostReference(seconds: seconds)]
        let host = HostFingerprint(cpuModel: "Test CPU", cores: 2, kernel: "Linux 6.1.0", architecture: "x86_64", referenceVersion: 1)
        let calibration = Calibration(reference: Calibration.combine(samples), fingerprint: host, made: "2026-11-26T06:00:00Z", samples: samples)
        let decoded = try CalibrationCache.decode(Array(CalibrationCache.encode(calibration).utf8))
        #expect(decoded == calibration)
        #expect(decoded.samples.map(\.clockGigahertz) == [4.25, 3.9, nil])
        #expect(decoded.reference.clockGigahertz == calibration.reference.clockGigahertz)
    }

    /// The range of clocks a calibration's processes saw, of those that read one.
    @Test func aCalibrationsClockRangeIsOfTheProcessesThatReadOne() {
        let seconds: [PhaseKind: Double] = [.cpu: 1, .io: 1, .decode: 1, .draw: 1]
        let host = HostFingerprint(cpuModel: "Test CPU", cores: 2, kernel: "Linux 6.1.0", architecture: "x86_64", referenceVersion: 1)
        func calibration(_ clocks: [Double?]) -> Calibration {
            Calibration(
                reference: HostReference(seconds: seconds), fingerprint: host, made: "now",
                samples: clocks.map { HostReference(seconds: seconds, clockGigahertz: $0) })
        }
        let range = calibration([4.3, 4.1, 4.5]).clockRange
        #expect(range?.slowest == 4.1 && range?.fastest == 4.5)
        #expect(calibration([4.3, 4.1, 4.5]).clocksUnread == 0)
        let partial = calibration([4.3, nil, 4.0])
        #expect(partial.clockRange?.slowest == 4.0 && partial.clockRange?.fastest == 4.3)
        #expect(partial.clocksUnread == 1)
        #expect(calibration([nil]).clockRange == nil)
        #expect(calibration([nil]).clocksUnread == 1)
    }
}

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

    /// Tries of a probe at `gigahertz`, timed alike by both clocks.
    func tries(_ gigahertz: [Double]) -> [HostClock.Try] {
        gigahertz.map {
            let ns = UInt64((Double(HostClock.cycles) / $0).rounded()); return HostClock.Try(wall: ns, cpu: ns)
        }
    }

    /// The reading is the fastest try that another confirms within 1%, timed by the wall clock.
    @Test func theFastestConfirmedTryIsTheReading() throws {
        let reading = try #require(HostClock.reading(of: tries([4.0, 4.2, 3.9, 4.19, 4.1])))
        #expect(abs(reading - 4.2) < 0.001)
    }

    /// A lone fast try is refused, however it came about (4.2 GHz tries with one at 6.13).
    @Test func aLoneFastTryIsRefused() throws {
        let reading = try #require(HostClock.reading(of: tries([4.2, 6.13, 4.19, 4.1])))
        #expect(abs(reading - 4.2) < 0.001)
    }

    /// A try whose CPU time reads short of its wall time (the kernel took a hypervisor's stop out
    /// of it, more than the try lost) is not timed by either clock: it is left out.
    @Test func aTryWhoseClocksDisagreeIsLeftOut() throws {
        var all = tries([4.2, 4.19, 4.1])
        all.append(HostClock.Try(wall: 250_000, cpu: 171_000))  // 6.13 GHz by CPU time, 4.19 by wall
        all.append(HostClock.Try(wall: 171_000, cpu: 250_000))  // and the other way round
        let reading = try #require(HostClock.reading(of: all))
        #expect(abs(reading - 4.2) < 0.001)
        // A preempted try (wall well over CPU time) is left out too, rather than read slow.
        #expect(HostClock.reading(of: [HostClock.Try(wall: 900_000, cpu: 250_000), HostClock.Try(wall: 900_000, cpu: 250_000)]) == nil)
    }

    /// Disturbed throughout: no reading rather than a wrong one.
    @Test func aProbeWithNoConfirmedTryReadsNothing() {
        #expect(HostClock.reading(of: tries([4.2])) == nil)
        #expect(HostClock.reading(of: tries([4.2, 3.9, 3.5])) == nil)
        #expect(HostClock.reading(of: []) == nil)
        #expect(HostClock.reading(of: [HostClock.Try(wall: 0, cpu: 0), HostClock.Try(wall: 0, cpu: 0)]) == nil)
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

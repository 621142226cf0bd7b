import LaunchCore
import LaunchTiers
import Testing

@testable import LaunchprofCLI

/// A calibration made while the core's clock moved says so (docs/tiers.md, "What still moves a calibration").
@Suite struct CalibrationClockWarningTests {
    func calibration(_ clocks: [Double?]) -> Calibration {
        let seconds: [PhaseKind: Double] = [.cpu: 0.001, .io: 0.002, .decode: 0.001, .draw: 0.005]
        let host = HostFingerprint(cpuModel: "Test CPU", cores: 2, kernel: "Linux 6.1.0", architecture: "x86_64", referenceVersion: 1)
        return Calibration(
            reference: HostReference(seconds: seconds), fingerprint: host, made: "2026-11-26T06:00:00Z",
            samples: clocks.map { HostReference(seconds: seconds, clockGigahertz: $0) })
    }

    @Test func aClockThatMovedOverThreePercentIsSaidWithItsRange() throws {
        let warning = try #require(HostCalibration.clockWarning(calibration([4.23, 4.4, 4.5])))
        #expect(warning.contains("moved 6.4%"))
        #expect(warning.contains("4.23–4.50 GHz"))
        #expect(warning.contains("tiers --calibrate"))
    }

    @Test func aSteadyClockIsNotSaid() {
        #expect(HostCalibration.clockWarning(calibration([4.40, 4.45, 4.50])) == nil)
        // A process whose probe was disturbed is left out, and the others agree.
        #expect(HostCalibration.clockWarning(calibration([4.40, nil, 4.50])) == nil)
        #expect(HostCalibration.clockWarning(calibration([])) == nil)
    }

    /// A moved clock says how many processes' probes were disturbed and left out.
    @Test func theProcessesWhoseProbeWasDisturbedAreCounted() throws {
        let warning = try #require(HostCalibration.clockWarning(calibration([4.0, nil, 4.5, nil])))
        #expect(warning.contains("moved 12.5%"))
        #expect(warning.contains("4.00–4.50 GHz"))
        #expect(warning.contains("disturbed"))
        #expect(warning.contains("in 2 of 4 processes, left out"))
        #expect(!(try #require(HostCalibration.clockWarning(calibration([4.0, 4.5])))).contains("disturbed"))
    }

    /// No process could read the clock: said, not taken for a steady clock.
    @Test func aClockNoProcessCouldReadIsSaid() throws {
        let warning = try #require(HostCalibration.clockWarning(calibration([nil, nil, nil])))
        #expect(warning.contains("could not be read"))
        #expect(warning.contains("in all 3 processes"))
    }
}

import Testing
@testable import LaunchStats
import LaunchCore

/// What refuses a comparison (another host, tier, metric, reference version) and what only caveats it.
@Suite struct EnvironmentCheckTests {
    func result(tier: String? = "iphone-3gs", version: Int? = 1) -> LaunchResult {
        var result = Fixed.result([("Init", Fixed.around(0.1))], tier: tier)
        if let version {
            result.configuration?.tier?.calibration = CalibrationInfo(
                made: "2026-11-25T20:00:00Z", referenceVersion: version, processes: 9, source: "cache", host: "k")
        }
        return result
    }

    @Test func theSameEnvironmentHasNoDifference() {
        #expect(EnvironmentCheck.differences(baseline: result(), candidate: result()).isEmpty)
        #expect(Comparison.caveats(baseline: result(), candidate: result()).isEmpty)
    }

    @Test func eachDifferenceIsNamedWithBothSides() {
        let a = result()
        var b = result(version: 2)
        b.host.cpuModel = "Other CPU"
        b.host.cores = 8
        b.host.os = "Linux 6.9"
        b.configuration?.metric = .instructions
        #expect(
            EnvironmentCheck.differences(baseline: a, candidate: b) == [
                "the results are from different hosts (CPU model cpu vs Other CPU; 2 vs 8 cores; kernel Linux vs Linux 6.9)",
                "the results measured different metrics (time and instructions)",
                "the tiers were calibrated on different reference workloads (version 1 and 2)"
            ])
        #expect(EnvironmentCheck.differences(baseline: a, candidate: result(tier: nil)) == ["the results are from different tiers (iphone-3gs and host)"])
    }

    @Test func aResultWithoutACalibrationOrBuildIsNotRefusedForLackingIt() {
        #expect(EnvironmentCheck.differences(baseline: result(version: nil), candidate: result()).isEmpty)
        var b = result()
        b.tool.build = "debug"
        #expect(Comparison.caveats(baseline: result(), candidate: b).isEmpty, "the baseline states no build")
    }

    @Test func toolchainAndBuildDifferencesAreCaveatsNotRefusals() {
        var a = result(), b = result()
        a.tool.build = "release"
        b.tool.build = "debug"
        b.host.swiftVersion = "6.2"
        #expect(EnvironmentCheck.differences(baseline: a, candidate: b).isEmpty)
        #expect(
            Comparison.caveats(baseline: a, candidate: b) == [
                "the results were made by different launchprof builds (Swift 6.3 vs 6.2; a release vs a debug build)"
            ])
    }
}

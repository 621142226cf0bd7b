import Testing
import LaunchCore
import LaunchStats

/// The warnings are computed from the runs, typed; LaunchExport words them.
struct LaunchWarningTests {
    func result(totals: [Double], peaks: [Int?] = [], tier: Bool = false) -> LaunchResult {
        let runs = totals.enumerated().map { i, total in
            var run = RunRecord(index: i + 1, total: total, phases: [PhaseRecord(name: "Init", start: 0, duration: total)])
            run.peakResidentBytes = i < peaks.count ? peaks[i] : nil
            return run
        }
        var result = LaunchResult(
            date: "2026-11-23T00:00:00Z", manifest: ManifestInfo(name: "m", path: "m.json", sha256: ""),
            host: HostInfo(cpuModel: "cpu", cores: 2, os: "linux", architecture: "x86_64", swiftVersion: "6.3", hostname: "h"),
            runs: runs)
        if tier {
            result.configuration = RunConfiguration(
                runs: runs.count, warmup: 0, mode: .warm, timeout: 60,
                tier: TierInfo(name: "slow", factors: [:], memoryBudget: 1000, hostReference: nil))
        }
        return result
    }

    @Test func aSlowFirstRunIsAnOutlierWithItsTotalAndTheMedian() {
        let warnings = LaunchWarning.warnings(for: result(totals: [0.5, 0.1, 0.101, 0.099, 0.1]), memoryBudget: nil)
        #expect(warnings == [.firstRunOutlier(total: 0.5, median: 0.1)])
    }

    @Test func aFirstRunOutOfATinySpreadButNotATenthSlowerIsNoWarning() {
        // 0.105 is an outlier by the modified z-score of nearly equal runs, but only 5% slower.
        #expect(LaunchWarning.warnings(for: result(totals: [0.105, 0.1, 0.1, 0.1, 0.1]), memoryBudget: nil) == [])
        #expect(LaunchWarning.warnings(for: result(totals: [0.5, 0.1]), memoryBudget: nil) == [])  // Too few runs to tell.
    }

    @Test func memoryOverTheTiersBudgetNamesTheTierAndTheLargestPeak() {
        let over = result(totals: [0.1, 0.1, 0.1], peaks: [900, 1500, 1200], tier: true)
        #expect(LaunchWarning.warnings(for: over, memoryBudget: 1000) == [.overMemoryBudget(peak: 1500, budget: 1000, tier: "slow")])
        #expect(LaunchWarning.warnings(for: over, memoryBudget: 2000) == [])
        #expect(LaunchWarning.warnings(for: result(totals: [0.1, 0.1, 0.1], peaks: [1500]), memoryBudget: 1000) == [])  // No tier ran.
    }

    /// Runs of a program with these CPU seconds (user + system).
    func programRuns(cpu: [Double]) -> LaunchResult {
        var programs = result(totals: cpu.map { $0 * 16 }, tier: true)
        for i in programs.runs.indices { programs.runs[i].process = ProcessRecord(user: cpu[i] * 0.75, system: cpu[i] * 0.25, exitStatus: 0) }
        return programs
    }

    @Test func aProgramShorterThanItsThrottleStretchesIsWarnedAboutWithItsMedianCPUTime() {
        let limit = StretchLimit(cpuSeconds: 0.02, mechanism: "cgroup v1 cpu.cfs_quota_us")
        let short = LaunchWarning.warnings(for: programRuns(cpu: [0.002, 0.003, 0.0025]), memoryBudget: nil, stretchLimit: limit)
        #expect(short == [.tooShortToStretch(cpu: 0.0025, limit: limit)])
        // Long enough, or no throttle (no limit), or the built-in app (no process records): nothing.
        #expect(LaunchWarning.warnings(for: programRuns(cpu: [0.03, 0.001, 0.025]), memoryBudget: nil, stretchLimit: limit) == [])
        #expect(LaunchWarning.warnings(for: programRuns(cpu: [0.002, 0.002, 0.002]), memoryBudget: nil) == [])
        #expect(LaunchWarning.warnings(for: result(totals: [0.001, 0.001, 0.001], tier: true), memoryBudget: nil, stretchLimit: limit) == [])
    }
}

import Testing
import LaunchExport
import LaunchStats

/// The wording of each warning, as printed after `launchprof: warning: ` and stored in results.
struct WarningTextTests {
    @Test func eachWarningIsWordedWithItsNumbers() {
        #expect(
            LaunchWarning.firstRunOutlier(total: 0.5, median: 0.1).message
                == "run 1 is an outlier (total 500 ms against a median of 100 ms): first launches are often slower (files not yet in the page cache, code not yet paged in); try --warmup 2"
        )
        #expect(
            LaunchWarning.overMemoryBudget(peak: 40 << 20, budget: 32 << 20, tier: "iphone-3gs").message
                == "peak resident memory 40.0 MiB is over the iphone-3gs memory budget of 32.0 MiB: an app this large would be killed there")
        #expect(
            LaunchWarning.tooShortToStretch(cpu: 0.0025, limit: StretchLimit(cpuSeconds: 0.02, mechanism: "cgroup v1 cpu.cfs_quota_us")).message
                == "the program computed for 2.50 ms a run (median CPU time), less than the 20.0 ms that cgroup v1 cpu.cfs_quota_us stretches within 15% of the factor: its emulated time is rough (docs/tiers.md, \"Short programs\")"
        )
    }
}

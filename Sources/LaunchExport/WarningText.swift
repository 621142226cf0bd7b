import LaunchCore
import LaunchStats

extension LaunchWarning {
    /// The warning as printed after `launchprof: warning: ` and stored in a result's `warnings`.
    public var message: String {
        switch self {
        case .firstRunOutlier(let total, let median):
            return
                "run 1 is an outlier (total \(DurationFormat.format(total)) against a median of \(DurationFormat.format(median))): first launches are often slower (files not yet in the page cache, code not yet paged in); try --warmup 2"
        case .overMemoryBudget(let peak, let budget, let tier):
            return
                "peak resident memory \(MemoryFormat.mebibytes(peak)) is over the \(tier) memory budget of \(MemoryFormat.mebibytes(budget)): an app this large would be killed there"
        case .tooShortToStretch(let cpu, let limit):
            return
                "the program computed for \(DurationFormat.format(cpu)) a run (median CPU time), less than the \(DurationFormat.format(limit.cpuSeconds)) that \(limit.mechanism) stretches within 15% of the factor: its emulated time is rough (docs/tiers.md, \"Short programs\")"
        }
    }
}

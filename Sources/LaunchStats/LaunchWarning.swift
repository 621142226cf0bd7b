import LaunchCore

/// Something about a set of runs the user should know before trusting it (hyperfine's warnings,
/// typed): computed here from the runs; LaunchExport words them (``LaunchWarning`` `.message`).
public enum LaunchWarning: Equatable, Sendable {
    /// Run 1 is an outlier and slower than the median by more than a tenth (seconds).
    case firstRunOutlier(total: Double, median: Double)
    /// The largest peak resident memory of the runs is over the tier's memory budget (bytes).
    case overMemoryBudget(peak: Int, budget: Int, tier: String)
    /// A program throttled from outside (`exec --tier`) computed for less (its runs' median CPU
    /// seconds) than the shortest its throttle stretches honestly (``StretchLimit``).
    case tooShortToStretch(cpu: Double, limit: StretchLimit)

    /// How much slower than the median run 1 must also be to be reported: with nearly identical
    /// runs the spread is so small that a difference of microseconds would count as an outlier.
    public static let outlierMinimumExcess = 0.1

    /// The warnings about `result`'s runs; `memoryBudget` is the tier's, in bytes, when a tier ran.
    public static func warnings(for result: LaunchResult, memoryBudget: Int?, stretchLimit: StretchLimit? = nil) -> [LaunchWarning] {
        var warnings: [LaunchWarning] = []
        let totals = result.runs.map(\.total)
        if totals.count >= 3, Outliers.indexes(totals).contains(0), let summary = Summary(totals),
            totals[0] > summary.median * (1 + outlierMinimumExcess)
        {
            warnings.append(.firstRunOutlier(total: totals[0], median: summary.median))
        }
        if let memoryBudget, let tier = result.configuration?.tier,
            let peak = result.runs.compactMap(\.peakResidentBytes).max(), peak > memoryBudget
        {
            warnings.append(.overMemoryBudget(peak: peak, budget: memoryBudget, tier: tier.name))
        }
        let cpu = result.runs.compactMap { $0.process.map { $0.user + $0.system } }
        if let stretchLimit, cpu.count == result.runs.count, let median = Summary(cpu)?.median, median < stretchLimit.cpuSeconds {
            warnings.append(.tooShortToStretch(cpu: median, limit: stretchLimit))
        }
        return warnings
    }
}

import ArgumentParser

/// What `run` and `record` share: the built-in app profiled with a fixed number of runs, the result
/// reported (``ReportOutputOptions``) and, when asked, stored in the results history (``StoreOption``).
struct AppRunOptions: ParsableArguments {
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var measure: MetricOptions
    @OptionGroup var functionProfile: FunctionOptions
    @OptionGroup var sampling: SampleOptions
    @OptionGroup var report: ReportOutputOptions
    /// `--store`: the history `record` stores into (and `run --store` too).
    @OptionGroup var history: StoreOption

    func validate() throws {
        try profile.launch.requireOneTier()
        try profile.launch.requireTierForTiersFile()
        try profile.launch.requireFixedRuns(comparison: "use it with check, and give this command a number")
    }

    /// Profiles the app and reports the result; with `storingFor` (the command as its refusal names
    /// it, `record`) the commit is required and the history opened before any run, and the result stored.
    func run(storingFor command: String?) throws {
        if let command { try ResultMetadata.requireCommit(for: command) }
        let store = command != nil ? try history.openForWriting(quiet: profile.launch.quiet) : nil
        let plan = try AppLaunchPlan(options: profile, metric: measure.metric, functions: functionProfile)
        defer { plan.cleanUp() }
        try sampling.require(measure.metric)
        let result = try PlanRunner(quiet: plan.quiet).run(plan, sampling: sampling)
        if let store { try history.save(result, into: store, quiet: plan.quiet) }
        try report.emit(result, profile: plan)
    }
}

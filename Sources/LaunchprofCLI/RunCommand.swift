import ArgumentParser

/// `launchprof run`: launches the built-in app as a new process per run and reports each phase.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Profile launches of the built-in startup pipeline, one new process per run.",
        discussion: """
            Each run starts the app (theme XML, layout, PNG assets through libpng, drawing, snapshot) as a new process, timed from just before the spawn: "process start" is exec to main. With more than one run each line shows the median ± the median absolute deviation.

            Examples:
              launchprof run                                   # 10 runs after 1 warm-up
              launchprof run --runs 1                          # the classic single report
              launchprof run --manifest Fixtures/heavy/manifest.json --cold
              launchprof run --tier iphone-3gs --memory        # emulate a 2009 phone
              launchprof run --output result.json --format json --quiet
              launchprof run --touch "loading conversions" --precision 3
            """
    )

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var measure: MetricOptions
    @OptionGroup var functionProfile: FunctionOptions
    @OptionGroup var sampling: SampleOptions
    @OptionGroup var report: ReportOutputOptions
    /// `--store`: also store the result in that history, as `record` does.
    @OptionGroup var history: StoreOption

    func validate() throws {
        try profile.launch.requireOneTier()
        try profile.launch.requireTierForTiersFile()
        try profile.launch.requireFixedRuns(comparison: "use it with check, and give this command a number")
    }

    func run() throws {
        if history.store != nil { try ResultMetadata.requireCommit(for: "run --store") }
        let store = history.store != nil ? try history.openForWriting(quiet: self.profile.launch.quiet) : nil
        let profile = try AppLaunchPlan(options: self.profile, metric: measure.metric, functions: functionProfile)
        defer { profile.cleanUp() }
        try sampling.require(measure.metric)
        let result = try PlanRunner(quiet: profile.quiet).run(profile, sampling: sampling)
        if let store { try history.save(result, into: store, quiet: profile.quiet) }
        try report.emit(result, profile: profile)
    }
}

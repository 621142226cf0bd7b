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

    @OptionGroup var options: AppRunOptions

    func run() throws {
        try options.run(storingFor: options.history.store != nil ? "run --store" : nil)
    }
}

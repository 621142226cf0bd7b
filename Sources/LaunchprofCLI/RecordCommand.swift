import ArgumentParser

/// `launchprof record`: profiles like `run` and stores the result in the repository's results store.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Profile like `run` and store the result in the results history (.launchprof/history.sqlite), keyed by commit.",
        discussion: """
            The result is keyed by the current commit (with its parents and dates), the host, the tier, the metric and the manifest, so `diff` and `check` can name it by a git revision and `history` lists it. --store (or LAUNCHPROF_STORE) chooses the history: a SQLite file, a postgresql:// URL, or a results directory of one JSON file per result; a repository that already has .launchprof/results/ keeps using it until `history import` moves it (docs/history.md). Storing is one transaction (a file is written atomically).

            Examples:
              launchprof record                              # on main, after each merge
              launchprof record --tier iphone-3gs
              launchprof diff HEAD~1 HEAD
            """
    )

    @OptionGroup var options: AppRunOptions

    func run() throws {
        try options.run(storingFor: "record")
    }
}

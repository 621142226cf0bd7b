import ArgumentParser
import LaunchHistory

/// `launchprof history import PATH...`: result files (and results directories) into the history.
struct HistoryImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Store result files, or every result file of a directory (.launchprof/results/), in the history.",
        discussion: """
            Every file is read and checked first: a file that is not a result, or a result made outside a git work tree (the history keys results by commit), stops the import before anything is stored. Each result is then stored in a transaction of its own, replacing the one stored for the same commit, host, tier, metric and target. The parents and dates of commits this repository knows are stored with them.

            Examples:
              launchprof history import .launchprof/results
              launchprof history import old/*.json --store postgresql://ci@db/perf
            """)

    @Argument(help: ArgumentHelp("Result files or directories of them.", valueName: "path"))
    var paths: [String]

    /// Into the history database by default, even where a results directory is still in use: importing is how a repository moves to it.
    @OptionGroup var history: StoreOption

    @Flag(name: .long, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("name the result files or directories to import") }
    }

    func run() throws {
        let results = try ImportedResults.read(paths)
        let location = history.named.map(StoreLocation.init) ?? .sqlite(StoreLocation.defaultDatabase)
        let store: any HistoryStore
        store = try location.open(create: true)
        for result in results {
            try store.save(result, commit: HistoryGit.commitInfo(of: result))
        }
        if !quiet { StandardError.write("launchprof: imported \(results.count) result\(results.count == 1 ? "" : "s") into \(store.location)\n") }
    }
}

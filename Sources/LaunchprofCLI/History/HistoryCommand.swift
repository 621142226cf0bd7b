import ArgumentParser
import LaunchHistory

/// `launchprof history`: the results stored across commits (docs/history.md).
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "The results history across commits: list, show, import, export; change points (detect) and trends.",
        discussion: """
            The history is where `record` (and `run --store`, `exec --record`) store results, keyed by commit, host, tier, metric and target: .launchprof/history.sqlite by default, or --store / LAUNCHPROF_STORE: a SQLite file, a postgresql:// URL for a history many CI machines share, or a results directory of one JSON file per result (docs/history.md).

            Examples:
              launchprof history list
              launchprof history show HEAD~1
              launchprof history import .launchprof/results
              launchprof history export --output results/
              launchprof history list --store postgresql://ci@db/perf
              launchprof history detect --since v1.2
              launchprof history trend "decode images"
            """,
        subcommands: [
            HistoryListCommand.self, HistoryShowCommand.self, HistoryImportCommand.self, HistoryExportCommand.self, HistoryDetectCommand.self,
            HistoryTrendCommand.self, HistoryDashboardCommand.self
        ]
    )
}

extension StoreOption {
    /// Opens each store results are read from (`--store`, else the repository's), refusing one
    /// that is missing or unusable.
    func openForReading() throws -> [any HistoryStore] {
        try readLocations.map { location throws(HistoryError) in try location.open(create: false) }
    }

    /// Every result in the stores read from, oldest first, with the store each is in.
    func allEntries() throws -> [(store: any HistoryStore, entry: HistoryEntry)] {
        var all: [(store: any HistoryStore, entry: HistoryEntry)] = []
        for store in try openForReading() {
            all += try store.entries().map { (store, $0) }
        }
        // Stable: results made in the same second stay in the order they were stored.
        return all.enumerated().sorted { ($0.element.entry.date, $0.offset) < ($1.element.entry.date, $1.offset) }.map(\.element)
    }
}

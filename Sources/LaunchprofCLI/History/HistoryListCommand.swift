import ArgumentParser
import LaunchHistory

/// `launchprof history list`: a line per stored result.
struct HistoryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "A line per stored result: commit, date, target, tier, metric and median total, oldest first.")

    @OptionGroup var history: StoreOption

    @Option(name: .long, help: "Output format: text or json (default: text).")
    var format: ListFormat = .text

    enum ListFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func run() throws {
        let all = try history.allEntries()
        switch format {
        case .text: print(HistoryListing.text(all.map(\.entry), places: history.readLocations.map(\.description)), terminator: "")
        case .json: print(try HistoryListing.json(all.map(\.entry)), terminator: "")
        }
    }
}

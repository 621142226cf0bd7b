import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchHistory

/// `launchprof history show REV`: the results stored for one commit.
struct HistoryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "The results stored for a commit: each one's key, then its report (or the result documents with --format json).")

    @Argument(help: ArgumentHelp("A git revision (HEAD~1, main, a hash) or a full commit hash.", valueName: "revision"))
    var revision: String

    @OptionGroup var history: StoreOption

    @Option(name: .long, help: "Output format: text or json (the stored result documents, in an array) (default: text).")
    var format: HistoryListCommand.ListFormat = .text

    @OptionGroup var decimals: PrecisionOption

    func run() throws {
        let commit = ResultMetadata.resolveRevision(revision) ?? revision
        let stored = try history.allEntries().filter { $0.entry.commit.hash == commit }
        guard !stored.isEmpty else {
            throw InputError.history(.noStoredResult(revision: revision, commit: commit, locations: history.readLocations.map(\.description)))
        }
        var documents: [[UInt8]] = []
        for (store, entry) in stored {
            documents.append(try store.document(entry))
        }
        if format == .json {
            print("[\n" + documents.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",\n") + "\n]")
            return
        }
        for ((store, entry), document) in zip(stored, documents) {
            print(HistoryListing.heading(entry, store: store.location))
            let result: LaunchResult
            result = try ResultFile.decode(document, path: "\(store.location): \(entry.commit.hash.prefix(12))")
            print(try OutputFormat.text.resultExporter(precision: decimals.precision, run: nil, allPhases: false).render(result))
        }
    }
}

import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchHistory

/// `launchprof history export --output DIR`: every stored result as a result file.
struct HistoryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every stored result back as a result file, named as a results directory names them.",
        discussion: """
            Each file holds the result byte for byte as `record --output` would have written it, named `<commit>[-<tier>][-<manifest>][-instructions][-dirty].json` as in .launchprof/results/, so DIR can be read as a results directory (`--store DIR`) or imported elsewhere. Files are written atomically; one of the same name is replaced.

            Example:
              launchprof history export --output results/
            """)

    @OptionGroup var history: StoreOption

    @Option(name: .long, help: ArgumentHelp("The directory to write the result files into (made when missing).", valueName: "directory"))
    var output: String

    @Flag(name: .long, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        try OutputPath.checkDirectory(output, option: "--output")
    }

    func run() throws {
        let all = try history.allEntries()
        var written = Set<String>()
        for (store, entry) in all {
            let name = ResultStore.fileName(
                commit: entry.commit.hash, tier: entry.tier, manifest: entry.target.name, metric: entry.metric, dirty: entry.dirty)
            // Results of several hosts at one commit would share a name: the later ones get the host's key.
            let unique = written.contains(name) ? String(name.dropLast(5)) + "-\(entry.environment).json" : name
            written.insert(unique)
            try FileIO.writeAtomically(try store.document(entry), to: "\(output)/\(unique)")
        }
        if !quiet { StandardError.write("launchprof: exported \(all.count) result\(all.count == 1 ? "" : "s") to \(output)\n") }
    }
}

import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchResults

/// How `diff` and `check` find stored results by revision.
struct StoreLookupOptions: ParsableArguments {
    @OptionGroup var history: StoreOption

    @Option(name: .customLong("for-tier"), help: ArgumentHelp("With revisions: the tier of the stored results.", valueName: "name"))
    var forTier: String?

    @Option(
        name: .customLong("for-manifest"),
        help: ArgumentHelp(
            "With revisions: the stored results' manifest name, or a program's (exec --name, else its command line: /bin/true, 'python3 -c pass').",
            valueName: "name"))
    var forManifest: String = "default"

    @Option(
        name: .customLong("for-command"),
        help: ArgumentHelp(
            "With revisions: the stored results of this program (`exec --record`): its command line as `exec` shows it, or its --name.", valueName: "command"))
    var forCommand: String?

    func validate() throws {
        if forCommand != nil, forManifest != "default" {
            throw ValidationError("give --for-manifest (the built-in app's manifest) or --for-command (a program), not both")
        }
        if let forCommand, forCommand.isEmpty { throw ValidationError("--for-command needs the program's command line or --name") }
    }

    /// The stored results' name: `--for-command`, else `--for-manifest` when given, else `manifest`
    /// (the candidate's) or `default`.
    func storedName(_ manifest: String?) -> String {
        forCommand ?? (forManifest == "default" ? (manifest ?? forManifest) : forManifest)
    }

    /// The result a file path or git revision names; `tier` and `manifest` stand in for the options
    /// when those were not given.
    func load(_ reference: String, tier: String? = nil, manifest: String? = nil, metric: Metric = .time) throws -> LaunchResult {
        try locate(reference, tier: tier, manifest: manifest, metric: metric).read()
    }

    /// Where the result a file path or git revision names is: a file, or a document in a history database.
    func locate(_ reference: String, tier: String?, manifest: String?, metric: Metric) throws -> StoredResult {
        try StoredResultLookup(locations: history.readLocations).locate(reference, tier: forTier ?? tier, target: storedName(manifest), metric: metric)
    }
}

extension StoreLookupOptions {
    /// The result a file path or git revision names, read by the streaming reader for comparison.
    func loadTable(_ reference: String, tier: String? = nil, manifest: String? = nil, metric: Metric = .time) throws -> TabulatedResult {
        try loadTables([reference], tier: tier, manifest: manifest, metric: metric)[0]
    }

    /// The results `references` name; files read at once on a thread each (``ResultTableReader/read(all:)``);
    /// an error is the first reference's that failed.
    func loadTables(_ references: [String], tier: String? = nil, manifest: String? = nil, metric: Metric = .time) throws -> [TabulatedResult] {
        try StoredResult.tables(try references.map { try locate($0, tier: tier, manifest: manifest, metric: metric) })
    }
}

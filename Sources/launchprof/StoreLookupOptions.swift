import ArgumentParser
import LaunchCore
import LaunchExport

/// How `diff` and `check` find stored results by revision.
struct StoreLookupOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The results store.", valueName: "directory"))
    var store: String = ResultStore.defaultDirectory

    @Option(name: .customLong("for-tier"), help: ArgumentHelp("With revisions: the tier of the stored results.", valueName: "name"))
    var forTier: String?

    @Option(
        name: .customLong("for-manifest"),
        help: ArgumentHelp(
            "With revisions: the stored results' manifest name, or a program's (exec --name, else its command line: /bin/true, 'python3 -c pass').",
            valueName: "name"))
    var forManifest: String = "default"

    /// The result a file path or git revision names; `tier` and `manifest` stand in for the options
    /// when those were not given.
    func load(_ reference: String, tier: String? = nil, manifest: String? = nil, metric: Metric = .time) throws -> LaunchResult {
        do {
            let path = try ResultStore(directory: store).locate(
                reference, tier: forTier ?? tier, manifest: forManifest == "default" ? (manifest ?? forManifest) : forManifest,
                metric: metric, resolveRevision: ResultMetadata.resolveRevision)
            return try ResultFile.read(path)
        } catch {
            throw InputError(error)
        }
    }
}

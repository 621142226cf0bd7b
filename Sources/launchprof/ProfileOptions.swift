import ArgumentParser

/// The options that say how to profile: shared by `run`, `record` and `check`.
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The manifest to launch.", valueName: "path"))
    var manifest: String?

    @Option(name: .long, help: ArgumentHelp("Measured runs, each a new process.", valueName: "n"))
    var runs: Int = 10

    @Option(name: .long, help: ArgumentHelp("Warm-up runs before the measured ones (not kept).", valueName: "n"))
    var warmup: Int = 1

    @Option(name: .long, help: ArgumentHelp("Seconds a run may take before it is killed.", valueName: "seconds"))
    var timeout: Double = 60

    @Flag(name: .long, help: "Evict the manifest's files from the page cache before each run (a cold launch).")
    var cold = false

    @Option(name: .long, help: ArgumentHelp("Emulate a slower device (see `launchprof tiers`).", valueName: "name"))
    var tier: String?

    @Option(name: .long, help: ArgumentHelp("A tiers file adding or overriding tiers.", valueName: "file"))
    var tiers: String?

    @Option(name: .long, help: ArgumentHelp("Write the snapshot PNG here instead of the manifest's path.", valueName: "file"))
    var snapshot: String?

    @Option(name: .long, help: ArgumentHelp("After launch, run this lazy stage as a first use would, and time it (repeatable).", valueName: "name"))
    var touch: [String] = []

    @Flag(name: .long, help: "Print only the report or result: no header, no progress, no warnings.")
    var quiet = false

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1, not \(runs)") }
        guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
        if tiers != nil && tier == nil { throw ValidationError("--tiers needs --tier NAME") }
    }

    /// The manifest path: `--manifest`, else the default one shipped in the repository.
    func manifestPath() throws -> String {
        guard let path = manifest ?? DefaultManifest.locate() else {
            throw InputError("no --manifest given and \(DefaultManifest.relativePath) was not found (run from the launchprof checkout, or pass --manifest)")
        }
        return path
    }
}

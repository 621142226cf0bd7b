import ArgumentParser

/// The options that say how to profile: shared by `run`, `record` and `check`.
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The manifest to launch.", valueName: "path"))
    var manifest: String?

    @Option(name: .long, help: ArgumentHelp(
        "Measured runs, each a new process: 1 to 10000, or auto (check: as many as the comparison needs, the default there). Default 10 (2 with --metric instructions).",
        valueName: "n|auto"))
    var runs: RunCount?

    @Option(name: .long, help: ArgumentHelp("Warm-up runs before the measured ones (not kept), 0 to 1000.", valueName: "n"))
    var warmup: Int = 1

    @Option(name: .long, help: ArgumentHelp("Seconds a run may take before it is killed, 0.001 to 86400 (default 60; 600 with --metric instructions, which runs under Valgrind).", valueName: "seconds"))
    var timeout: Double?

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

    /// The range of `--warmup`.
    static let warmupRange = 0...1_000
    /// The range of `--timeout`, in seconds (a day at most, so it converts to nanoseconds safely).
    static let timeoutRange = 0.001...86_400.0

    func validate() throws {
        guard Self.warmupRange.contains(warmup) else {
            throw ValidationError("--warmup must be from \(Self.warmupRange.lowerBound) to \(Self.warmupRange.upperBound), not \(warmup)")
        }
        if let timeout, !Self.timeoutRange.contains(timeout) {
            throw ValidationError("--timeout must be from 0.001 to 86400 seconds, not \(timeout)")
        }
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

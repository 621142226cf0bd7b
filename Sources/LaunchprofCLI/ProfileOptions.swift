import ArgumentParser
import LaunchRunner
import LaunchTiers

/// The options that say how to profile: shared by `run`, `record` and `check`.
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The manifest to launch.", valueName: "path"))
    var manifest: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Measured runs, each a new process: 1 to 10000, or auto (check only, its default: interleaved pairs until every phase is decided, within --max-runs and --max-time; see docs/sequential.md). Default 10 for run and record (2 with --metric instructions).",
            valueName: "n|auto"), transform: RunCount.parse)
    var runs: RunCount?

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Warm-up runs before the measured ones (not kept), 0 to 1000.", valueName: "n"),
        transform: OptionRanges.warmup.parse)
    var warmup: Int = 1

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a run may take before it is killed, 0.001 to 86400 (default 60; 600 with --metric instructions, which runs under Valgrind).",
            valueName: "seconds"),
        transform: OptionRanges.timeout.parse)
    var timeout: Double?

    @Flag(name: .long, help: "Evict the manifest's files from the page cache before each run (a cold launch).")
    var cold = false

    @Option(name: .customLong("tier"), help: ArgumentHelp("Emulate a slower device (see `launchprof tiers`); compare takes several.", valueName: "name"))
    var tierNames: [String] = []

    /// The tier to emulate: the one `--tier` given (``requireOneTier()``), or `nil`.
    var tier: String? {
        get { tierNames.last }
        set { tierNames = newValue.map { [$0] } ?? [] }
    }

    @Option(name: .long, help: ArgumentHelp("A tiers file adding or overriding tiers.", valueName: "file"))
    var tiers: String?

    @Flag(
        name: .customLong("enforce-memory"),
        help:
            "With --tier: run each launch in a cgroup whose memory limit is the tier's memory budget, so an app that grows past it is killed as on the device.")
    var enforceMemory = false

    @Option(name: .long, help: ArgumentHelp("Write the snapshot PNG here instead of the manifest's path.", valueName: "file"))
    var snapshot: String?

    @Option(
        name: .customLong("background-budget"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds the app may take to enter the background after the launch, 0.001 to 60 (default 5, the OS's limit); past it the app is killed with SIGKILL, as the OS does, and the run fails. Under --tier the step is stretched like any phase.",
            valueName: "seconds"), transform: OptionRanges.backgroundBudget.parse)
    var backgroundBudget: Double = 5

    @Option(
        name: .customLong("tap"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Press KEY (a key's label or icon in the theme: 7, +, ×, =, AC, backspace…) SECONDS after the spawn, 0 to 3600, like a user tapping the app while it launches (repeatable). The report says how many were delivered, lost, and how long until a frame showed each.",
            valueName: "seconds:key"), transform: TapOption.parse)
    var taps: [ScheduledTap] = []

    @Option(
        name: .customLong("relaunch-after"), parsing: .unconditional,
        help: ArgumentHelp(
            "Start each launch this many seconds after the previous one was sent to the background, 0 to 60, while it may still be closing (saving, sending its report on close): the relaunch's 'waiting for the state lock' shows how long it waited.",
            valueName: "seconds"), transform: OptionRanges.relaunchAfter.parse)
    var relaunchAfter: Double?

    @Option(name: .long, help: ArgumentHelp("Seed the loading dialog's choice of message, so runs repeat it (0 to 18446744073709551615).", valueName: "n"))
    var seed: UInt64?

    @Flag(
        name: .customLong("force-decode-race"),
        help:
            "For tests of backgroundDecode: while the window's image decodes on a worker, give the window another image, and hand the first decode back last (the reuse race, every run)."
    )
    var forceDecodeRace = false

    @Flag(
        name: .long,
        help:
            "After the background step, bring the app back to the foreground and time its return ('returning to foreground'): the cost of releaseCachesOnBackground."
    )
    var resume = false

    @Flag(
        name: .customLong("fresh-install"),
        help: "Delete the app's saved state (its snapshot and state file) before each run, as a fresh install: with snapshotFirst the splash shows.")
    var freshInstall = false

    @Option(name: .long, help: ArgumentHelp("After launch, run this lazy stage as a first use would, and time it (repeatable).", valueName: "name"))
    var touch: [String] = []

    @Option(name: .long, help: ArgumentHelp("The built-in app's executable (default: launchprof-app next to launchprof).", valueName: "path"))
    var app: String?

    @Flag(name: .long, help: "Print only the report or result: no header, no progress, no warnings.")
    var quiet = false

    func validate() throws {
        // Read within range already (OptionRanges); checked again before anything sizes or converts.
        if case .fixed(let n) = runs { try OptionRanges.runs.check(n) }
        try OptionRanges.warmup.check(warmup)
        if let timeout { try OptionRanges.timeout.check(timeout) }
        try OptionRanges.backgroundBudget.check(backgroundBudget)
        if enforceMemory && tier == nil { throw ValidationError("--enforce-memory needs --tier NAME (the tier's memory budget is the limit)") }
        try OutputPath.check(snapshot, option: "--snapshot")
    }

    /// `--tiers FILE` only with `--tier NAME` (check with `--budget` reads it for the budget's tiers too).
    func requireTierForTiersFile() throws {
        if tiers != nil && tier == nil { throw ValidationError("--tiers needs --tier NAME") }
    }

    /// `--tier` given at most once: every command but compare emulates one device.
    func requireOneTier() throws {
        if tierNames.count > 1 {
            throw ValidationError("--tier was given \(tierNames.count) times: this command emulates one device (launchprof compare takes several)")
        }
    }

    /// Every `--tier` name is in the tier table (the built-in one and `--tiers`), checked before anything
    /// runs: compare launches tier after tier, and a misspelt last one would otherwise wait for the others.
    func checkTierNames() throws {
        guard !tierNames.isEmpty else { return }
        do {
            let table = try TierTable.load(userFile: tiers)
            for name in tierNames { _ = try table.tier(named: name) }
        } catch { throw InputError("--tier: \(error)") }
    }

    /// The manifest path: `--manifest`, else the default one shipped in the repository.
    func manifestPath() throws -> String {
        guard let path = manifest ?? DefaultManifest.locate() else {
            throw InputError("no --manifest given and \(DefaultManifest.relativePath) was not found (run from the launchprof checkout, or pass --manifest)")
        }
        return path
    }
}

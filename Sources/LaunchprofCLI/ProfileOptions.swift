import ArgumentParser
import LaunchRunner

/// The options of the built-in app as a target (`run`, `record`, `check`, `compare`): the shared
/// ``LaunchOptions``, then what only the app does (a manifest, taps, the background step, first uses).
struct ProfileOptions: ParsableArguments {
    /// What every launching command shares: runs, warm-ups, timeout, cold, tier, quiet.
    @OptionGroup var launch: LaunchOptions

    @Option(name: .long, help: ArgumentHelp("The manifest to launch.", valueName: "path"))
    var manifest: String?

    @Option(name: .long, help: ArgumentHelp("Write the snapshot PNG here instead of the manifest's path.", valueName: "file"))
    var snapshot: String?

    @Option(
        range: OptionRanges.backgroundBudget,
        help:
            "Seconds the app may take to enter the background after the launch, 0.001 to 60 (default 5, the OS's limit); past it the app is killed with SIGKILL, as the OS does, and the run fails. Under --tier the step is stretched like any phase.",
        valueName: "seconds")
    var backgroundBudget: Double = 5

    @Option(
        name: .customLong("tap"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Press KEY (a key's label or icon in the theme: 7, +, ×, =, AC, backspace…) SECONDS after the spawn, 0 to 3600, like a user tapping the app while it launches (repeatable). The report says how many were delivered, lost, and how long until a frame showed each.",
            valueName: "seconds:key"), transform: TapOption.parse)
    var taps: [ScheduledTap] = []

    @Option(
        range: OptionRanges.relaunchAfter,
        help:
            "Start each launch this many seconds after the previous one was sent to the background, 0 to 60, while it may still be closing (saving, sending its report on close): the relaunch's 'waiting for the state lock' shows how long it waited.",
        valueName: "seconds")
    var relaunchAfter: Double?

    /// Test hooks of the built-in app, hidden from the help.
    @OptionGroup(visibility: .hidden) var hooks: AppTestHooks

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

    func validate() throws {
        try OptionRanges.backgroundBudget.check(backgroundBudget)
        try OutputPath.check(snapshot, option: "--snapshot")
    }

    /// The manifest path: `--manifest`, else the default one shipped in the repository.
    func manifestPath() throws -> String {
        guard let path = manifest ?? DefaultManifest.locate() else {
            throw InputError.usage(.noManifest(relativePath: DefaultManifest.relativePath))
        }
        return path
    }
}

/// The built-in app's hooks for tests (hidden from the help): a seeded loading message, the decode race.
struct AppTestHooks: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Seed the loading dialog's choice of message, so runs repeat it (0 to 18446744073709551615).", valueName: "n"))
    var seed: UInt64?

    @Flag(
        name: .customLong("force-decode-race"),
        help:
            "For tests of backgroundDecode: while the window's image decodes on a worker, give the window another image, and hand the first decode back last (the reuse race, every run)."
    )
    var forceDecodeRace = false
}

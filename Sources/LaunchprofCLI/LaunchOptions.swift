import ArgumentParser
import LaunchCore
import LaunchStats
import LaunchTiers

/// The options every launching command shares (run, record, check, compare, exec), whatever the
/// target: how many runs, their surroundings (warm-ups, timeout, a cold page cache), the emulated
/// device, and how much is printed. Resolved once, with the metric, into a plan (``LaunchRequest``).
struct LaunchOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Measured runs, each a new process: 1 to 10000, or auto in a comparison (check, where it is the default; compare; exec --baseline-command): interleaved pairs until every phase is decided, within --max-runs and --max-time (docs/sequential.md). Default 10; 20 on a device tier (its rows are judged together, each at a share of alpha); 2 with --metric instructions, whose counts repeat.",
            valueName: "n|auto"), transform: RunCount.parse)
    var runs: RunCount?

    @Option(range: OptionRanges.warmup, help: "Warm-up runs before the measured ones (not kept), 0 to 1000.", valueName: "n")
    var warmup: Int = 1

    @Option(
        range: OptionRanges.timeout,
        help:
            "Seconds a run may take before its process group is killed, 0.001 to 86400 (default 60; 600 with --metric instructions, under Valgrind about 50 times slower).",
        valueName: "seconds")
    var timeout: Double?

    @Flag(
        name: .long,
        help:
            "Evict what a launch reads from the page cache before each run (a cold launch): the manifest's files for the built-in app; for a program its executable, its #! interpreter, the shared libraries the dynamic loader maps for them, and every --input."
    )
    var cold = false

    @Option(
        name: .customLong("tier"),
        help: ArgumentHelp(
            "Emulate a slower device (see `launchprof tiers`): the built-in app stretches each phase by the tier's factors; a program's CPU is throttled from outside by the cpu factor (a cgroup with 1/F of a CPU, or SIGSTOP/SIGCONT duty cycling; the io, decode and draw factors cannot be applied from outside). compare takes several.",
            valueName: "name"))
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
            "With --tier: run each launch in a cgroup whose memory limit is the tier's memory budget, so a launch that grows past it is killed as on the device."
    )
    var enforceMemory = false

    @Flag(name: .long, help: "Print only the report or result: no header, no progress, no warnings.")
    var quiet = false

    func validate() throws {
        // Read within range already (OptionRanges); checked again before anything sizes or converts.
        if case .fixed(let n) = runs { try OptionRanges.runs.check(n) }
        try OptionRanges.warmup.check(warmup)
        if let timeout { try OptionRanges.timeout.check(timeout) }
        if enforceMemory && tier == nil { throw ValidationError("--enforce-memory needs --tier NAME (the tier's memory budget is the limit)") }
    }

    /// The measured runs of a fixed session: `--runs N`, else ``defaultRuns(metric:)``.
    func fixedRuns(metric: Metric) -> Int {
        if case .fixed(let n) = runs { return n }
        return defaultRuns(metric: metric)
    }

    /// The runs when none are given: 10; 20 on a device tier, where every phase can fail a check and
    /// the rows are judged together (Holm), so each row's test must reach a share of alpha (21 rows:
    /// 8 runs each at the least, about 20 to find a 10% change most times); 2 for instruction counts,
    /// which repeat.
    func defaultRuns(metric: Metric) -> Int {
        metric == .instructions ? 2 : tier != nil ? 20 : 10
    }

    /// The candidate's runs against a stored baseline of `storedRuns` runs, as check makes them: with
    /// `--runs auto` (or none: check's default) as many as the baseline has, at least the default
    /// runs (10, 20 on a tier) and at most `maxRuns` (a stored baseline cannot grow, so there is no
    /// sequential rule, only enough runs on both sides); else the fixed count.
    func runs(againstStored storedRuns: Int?, maxRuns: Int, metric: Metric) -> Int {
        guard runs == nil || runs == .auto else { return fixedRuns(metric: metric) }
        let least = defaultRuns(metric: .time)
        return min(max(storedRuns ?? least, least), maxRuns)
    }

    /// Seconds a run may take: `--timeout`, else 60 (600 under Valgrind, about 50 times slower).
    func runTimeout(metric: Metric) -> Double {
        timeout ?? (metric == .instructions ? 600 : 60)
    }

    /// `--runs auto` outside a comparison, refused with the one message that says where it belongs.
    func requireFixedRuns(comparison: String) throws {
        if runs == .auto { throw ValidationError("--runs auto chooses how many runs a comparison needs: \(comparison)") }
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
        } catch { throw InputError.about(subject: "--tier", error) }
    }
}

extension LaunchOptions {
    /// How a comparison's runs are chosen: `--runs auto` (within `adaptive`'s budget, decided by
    /// `thresholds`), else each side's fixed runs. `defaultAuto`: auto without `--runs` (check's default).
    func pairSchedule(
        _ adaptive: AdaptiveOptions, _ thresholds: Thresholds, keys: Set<String>? = nil, defaultAuto: Bool = false
    ) -> PlanRunner.PairSchedule {
        guard runs == .auto || (defaultAuto && runs == nil) else { return .fixed }
        return .auto(budget: adaptive, thresholds: thresholds, keys: keys)
    }
}

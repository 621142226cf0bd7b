import LaunchCore
import LaunchExport
import LaunchManifest
import LaunchRunner
import LaunchStats
import LaunchTiers

/// The launch plan of the built-in app (``LaunchTarget/builtInApp(manifest:path:)``): one manifest
/// launched the way the options say, resolved once (manifest, tier, runs, timeout, the launcher).
struct AppLaunchPlan {
    let options: ProfileOptions
    let manifestPath: String
    let manifest: Manifest
    let launcher: ProcessLauncher
    let tierInfo: TierInfo?
    let memoryBudget: Int?
    let metric: Metric
    /// Seconds a run may take: `--timeout`, else 60 (600 under Valgrind, about 50 times slower).
    let timeout: Double
    /// Functions listed under each phase (`--top`, with `--functions`).
    let topFunctions: Int

    /// Loads the manifest (failing fast with its error) and resolves the tier (on this host's cached
    /// calibration, or on `calibration`: a stored baseline's). With `--metric instructions`, each run
    /// is made under Callgrind.
    init(
        options: ProfileOptions, manifestPath: String? = nil, metric: Metric = .time,
        calibration: (HostReference, CalibrationInfo)? = nil, functions: FunctionOptions? = nil
    ) throws {
        var options = options
        self.metric = metric
        // `--functions` (a parsed option group: one made in code has no values to read).
        try functions?.require(metric)
        topFunctions = functions?.top ?? FunctionReport.defaultTop
        let timeout = options.launch.runTimeout(metric: metric)
        self.timeout = timeout
        // (check's instruction sides choose their own runs: --runs auto is not refused here.)
        if metric == .instructions, options.launch.tier != nil { throw InputError.refused(.tierWithInstructions) }
        let path = try manifestPath ?? options.manifestPath()
        self.manifestPath = path
        manifest = try Self.loadManifest(path, options: &options)
        self.options = options
        let tier = try options.launch.resolvedTier(calibration: calibration)
        self.tierInfo = tier?.info
        self.memoryBudget = tier?.memoryBudget
        let executable = try AppExecutable.locate(override: options.app)
        var launcher = ProcessLauncher(
            executable: executable, arguments: Self.arguments(manifest: path, options), environment: Self.emulation(tier), timeout: timeout)
        if metric == .instructions {
            launcher = try InstructionCounting.counting(launcher)
            launcher.instructionCounting?.collectsFunctions = functions?.functions ?? false
        }
        if let budget = try options.launch.enforcedMemoryLimit(tier), let tier {
            // The app stretches its own CPU time; the cgroup only limits its memory.
            launcher.throttle = ThrottleSpec(cpuFactor: 1, memoryLimit: budget)
            launcher.memoryLimitLabel = "\(tier.device.name) memory budget"
        }
        try Self.scriptLaunch(&launcher, manifest: manifest, path: path, executable: executable, options: options, metric: metric)
        self.launcher = launcher
    }

    /// The manifest at `path`, loaded (failing fast with its error); an installed one (read-only for
    /// this user) saves its snapshot in the user's cache instead. `--force-decode-race` is refused
    /// for a manifest with no decode on a worker to race with.
    static func loadManifest(_ path: String, options: inout ProfileOptions) throws -> Manifest {
        let manifest = try ManifestLoader.load(path: path)
        if options.snapshot == nil, let snapshot = manifest.snapshot {
            options.snapshot = DefaultManifest.writableSnapshot(for: snapshot, manifestName: manifest.name)
        }
        if options.hooks.forceDecodeRace, manifest.strategies.backgroundDecode == nil {
            throw InputError.usage(.decodeRaceWithoutBackgroundDecode(path: path))
        }
        return manifest
    }

    /// The app's environment: the tier's factors, for the app to stretch its own phases (none for the
    /// host itself), and the clock its calibration holds at, for the app to stretch at the clock it runs at.
    static func emulation(_ tier: ResolvedTier?) -> [String: String] {
        guard let tier, !tier.device.isIdentity else { return [:] }
        let emulation = DeviceEmulation(factors: tier.factors, clockGigahertz: tier.info.calibration?.clockGigahertz)
        return [AppInterface.emulationVariable: emulation.encoded]
    }

    /// The app's arguments: the manifest, the snapshot, the first uses, the test hooks.
    static func arguments(manifest path: String, _ options: ProfileOptions) -> [String] {
        var arguments = ["--manifest", path]
        if let snapshot = options.snapshot { arguments += ["--snapshot", snapshot] }
        for name in options.touch { arguments += ["--touch", name] }
        if let seed = options.hooks.seed { arguments += ["--seed", String(seed)] }
        if options.hooks.forceDecodeRace { arguments.append("--force-decode-race") }
        return arguments
    }

    /// What a launch goes through besides its phases: the marks the manifest promises, the background
    /// step (and the return with `--resume`) before it quits, the taps, the background budget, a fresh install.
    static func scriptLaunch(
        _ launcher: inout ProcessLauncher, manifest: Manifest, path: String, executable: String, options: ProfileOptions, metric: Metric
    ) throws {
        launcher.expectedMarks = manifest.promisedMarks
        // After the launch the app is sent to the background (it saves its snapshot there), then quits.
        launcher.inputAfterLaunch = options.resume ? [.background, .foreground, .quit] : [.background, .quit]
        launcher.taps = try TapOption.check(options.taps, manifest: path, app: executable)
        // Under Valgrind everything is about 50 times slower: the OS's budget does not apply.
        launcher.backgroundBudget = metric == .instructions ? nil : options.backgroundBudget
        if options.freshInstall, let snapshot = options.snapshot ?? manifest.snapshot {
            launcher.removeBeforeLaunch = [snapshot, Manifest.statePath(snapshot: snapshot)]
        }
    }

    /// Removes what instruction counting left behind (its private output directory).
    func cleanUp() {
        launcher.instructionCounting?.cleanUp()
    }

    /// The measured runs of a fixed session: `--runs N`, else 10 (2 for instruction counts, which repeat).
    var runs: Int { options.launch.fixedRuns(metric: metric) }

    /// What `--quiet` asked for.
    var quiet: Bool { options.launch.quiet }

    /// Warm-up runs: `--warmup`; with instruction counts none (they repeat exactly), except one when
    /// the launch depends on the state a previous run saved (`snapshotFirst` shows its snapshot).
    var warmup: Int {
        guard metric == .instructions else { return options.launch.warmup }
        return manifest.strategies.snapshotFirst ? 1 : 0
    }

    /// A session of `runs` measured runs after `warmup` warm-ups.
    func session(runs: Int, warmup: Int) -> LaunchSession {
        var session = LaunchSession(launcher: launcher, runs: runs, warmup: warmup, coldFiles: options.launch.cold ? Self.files(of: manifest) : [])
        session.relaunchAfter = options.relaunchAfter
        return session
    }

    var target: LaunchTarget { .builtInApp(manifest: manifest.name, path: manifestPath) }

    /// A result document for `records` made with this profile.
    func result(_ records: [RunRecord]) -> LaunchResult {
        var result = LaunchResult(
            date: ResultMetadata.date(),
            manifest: ManifestInfo(name: manifest.name, path: manifestPath, sha256: manifest.sha256),
            host: HostInfo.current(), git: ResultMetadata.git(),
            configuration: RunConfiguration(
                runs: records.count, warmup: warmup,
                mode: options.launch.cold ? .cold : .warm,
                timeout: timeout, tier: tierInfo, metric: metric),
            runs: records)
        result.warnings = LaunchWarning.warnings(for: result, memoryBudget: memoryBudget).map(\.message)
        // Rules on shares of time: not for Valgrind's times under --metric instructions.
        if metric != .instructions { result.slowReasons = SlowLaunchDiagnosis.reasons(records) }
        result.addFunctions(of: records, countedBy: launcher)
        return result
    }

    /// Prints the result's warnings on stderr unless `--quiet`.
    func printWarnings(_ result: LaunchResult) {
        guard !quiet else { return }
        StandardError.warnings(of: result)
    }

    /// Every file a launch of `manifest` reads: evicted before each run of a cold launch.
    static func files(of manifest: Manifest) -> [String] {
        var files = [manifest.path, manifest.theme] + manifest.stages.compactMap(\.file)
        files += PageCache.files(under: manifest.assets).filter { $0.hasSuffix(".png") }
        return files
    }
}

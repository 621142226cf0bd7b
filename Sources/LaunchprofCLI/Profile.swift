import LaunchCore
import LaunchExport
import LaunchPipeline
import LaunchRunner
import LaunchStats
import LaunchTiers

/// Everything needed to launch one manifest the way the options say.
struct Profile {
    let options: ProfileOptions
    let manifestPath: String
    let manifest: Manifest
    let launcher: AppLauncher
    let tierInfo: TierInfo?
    let memoryBudget: Int?
    let metric: Metric
    /// Seconds a run may take: `--timeout`, else 60 (600 under Valgrind, about 50 times slower).
    let timeout: Double

    /// Loads the manifest (failing fast with its error) and resolves the tier (on this host's cached
    /// calibration, or on `calibration`: a stored baseline's). With `--metric instructions`, each run
    /// is made under Callgrind.
    init(
        options: ProfileOptions, manifestPath: String? = nil, metric: Metric = .time,
        calibration: (HostReference, CalibrationInfo)? = nil
    ) throws {
        var options = options
        self.metric = metric
        let timeout = options.timeout ?? (metric == .instructions ? 600 : 60)
        self.timeout = timeout
        if metric == .instructions, let tier = options.tier {
            throw InputError(
                "--tier \(tier) does not apply to --metric instructions: a device tier stretches time, and an instruction count is the same on every device (leave out --tier, or measure time)"
            )
        }
        let path = try manifestPath ?? options.manifestPath()
        self.manifestPath = path
        do { manifest = try ManifestLoader.load(path: path) } catch { throw InputError(error) }
        // An installed manifest (read-only for this user) saves its snapshot in the user's cache instead.
        if options.snapshot == nil, let snapshot = manifest.snapshot {
            options.snapshot = DefaultManifest.writableSnapshot(for: snapshot, manifestName: manifest.name)
        }
        self.options = options
        if options.forceDecodeRace, manifest.strategies.backgroundDecode == nil {
            throw InputError("--force-decode-race: \(path) does not turn on strategies.backgroundDecode, so no image decodes on a worker to race with")
        }
        var tierInfo: TierInfo?
        var memoryBudget: Int?
        var environment: [String: String] = [:]
        if let name = options.tier {
            let device: DeviceTier
            do { device = try TierTable.load(userFile: options.tiers).tier(named: name) } catch { throw InputError(error) }
            let (factors, reference, calibrationInfo) = try HostCalibration.resolve(device, using: calibration)
            tierInfo = TierInfo(
                name: device.name,
                factors: factors,
                memoryBudget: device.memoryBudget,
                hostReference: reference?.seconds,
                backgroundMemory: device.backgroundMemory,
                calibration: calibrationInfo)
            memoryBudget = device.memoryBudget
            if !device.isIdentity { environment[AppInterface.emulationVariable] = DeviceEmulation(factors: factors).encoded }
        }
        self.tierInfo = tierInfo
        self.memoryBudget = memoryBudget
        let executable = try AppExecutable.locate(override: options.app)
        var arguments = ["--manifest", path]
        if let snapshot = options.snapshot { arguments += ["--snapshot", snapshot] }
        for name in options.touch { arguments += ["--touch", name] }
        if let seed = options.seed { arguments += ["--seed", String(seed)] }
        if options.forceDecodeRace { arguments.append("--force-decode-race") }
        var launcher = AppLauncher(executable: executable, arguments: arguments, environment: environment, timeout: timeout)
        if metric == .instructions {
            do { launcher = try InstructionCounting.counting(launcher) } catch { throw InputError(error.description) }
        }
        if options.enforceMemory {
            guard let budget = memoryBudget, let tier = tierInfo?.name else {
                throw InputError("--enforce-memory: the tier \(options.tier ?? "") has no memory budget")
            }
            // The app stretches its own CPU time; the cgroup only limits its memory.
            launcher.throttle = ThrottleSpec(cpuFactor: 1, memoryLimit: budget)
            launcher.memoryLimitLabel = "\(tier) memory budget"
        }
        launcher.expectedMarks = manifest.promisedMarks
        // After the launch the app is sent to the background (it saves its snapshot there), then quits.
        launcher.inputAfterLaunch = options.resume ? [.background, .foreground, .quit] : [.background, .quit]
        launcher.taps = try TapOption.check(options.taps, against: manifest)
        // Under Valgrind everything is about 50 times slower: the OS's budget does not apply.
        launcher.backgroundBudget = metric == .instructions ? nil : options.backgroundBudget
        if options.freshInstall, let snapshot = options.snapshot ?? manifest.snapshot {
            launcher.removeBeforeLaunch = [snapshot, Pipeline.statePath(snapshot: snapshot)]
        }
        self.launcher = launcher
    }

    /// Removes what instruction counting left behind (its private output directory).
    func cleanUp() {
        launcher.instructionCounting?.cleanUp()
    }

    /// The measured runs of a fixed session: `--runs N`, else 10 (2 for instruction counts, which repeat).
    var fixedRuns: Int {
        if case .fixed(let n) = options.runs { return n }
        return metric == .instructions ? 2 : 10
    }

    /// Warm-up runs: `--warmup`; with instruction counts none (they repeat exactly), except one when
    /// the launch depends on the state a previous run saved (`snapshotFirst` shows its snapshot).
    var warmup: Int {
        guard metric == .instructions else { return options.warmup }
        return manifest.strategies.snapshotFirst ? 1 : 0
    }

    /// The session of warm-up and measured runs.
    var session: LaunchSession {
        session(runs: fixedRuns, warmup: warmup)
    }

    /// A session of `runs` measured runs after `warmup` warm-ups.
    func session(runs: Int, warmup: Int) -> LaunchSession {
        var session = LaunchSession(launcher: launcher, runs: runs, warmup: warmup, coldFiles: options.cold ? Self.files(of: manifest) : [])
        session.relaunchAfter = options.relaunchAfter
        return session
    }

    /// Runs the session (with a progress bar on a terminal) and returns the result, warnings included.
    func run() throws -> LaunchResult {
        try run(runs: fixedRuns)
    }

    /// Runs `runs` measured runs after the warm-ups and returns the result, warnings included.
    func run(runs: Int) throws -> LaunchResult {
        let progress = ProgressBar(enabled: !options.quiet && StandardError.isTerminal)
        defer { cleanUp() }
        let records: [RunRecord]
        do {
            records = try session(runs: runs, warmup: warmup).run { progress.handle($0) }
            progress.finish()
        } catch {
            progress.finish()
            throw InputError(error.description)
        }
        return result(records)
    }

    /// A result document for `records` made with this profile.
    func result(_ records: [RunRecord]) -> LaunchResult {
        var result = LaunchResult(
            date: ResultMetadata.date(),
            manifest: ManifestInfo(name: manifest.name, path: manifestPath, sha256: manifest.sha256),
            host: HostInfo.current(), git: ResultMetadata.git(),
            configuration: RunConfiguration(
                runs: records.count, warmup: warmup,
                mode: options.cold ? .cold : .warm,
                timeout: timeout, tier: tierInfo, metric: metric),
            runs: records)
        result.warnings = LaunchWarning.warnings(for: result, memoryBudget: memoryBudget).map(\.message)
        // Rules on shares of time: not for Valgrind's times under --metric instructions.
        if metric != .instructions { result.slowReasons = SlowLaunchDiagnosis.reasons(records) }
        return result
    }

    /// Prints the result's warnings on stderr unless `--quiet`.
    func printWarnings(_ result: LaunchResult) {
        guard !options.quiet else { return }
        for warning in result.warnings { StandardError.warning("\(warning)") }
    }

    /// Every file a launch of `manifest` reads: evicted before each run of a cold launch.
    static func files(of manifest: Manifest) -> [String] {
        var files = [manifest.path, manifest.theme] + manifest.stages.compactMap(\.file)
        files += PageCache.files(under: manifest.assets).filter { $0.hasSuffix(".png") }
        return files
    }
}

import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchPipeline
import LaunchRunner
import LaunchStats
import LaunchTiers

/// `launchprof run`: launches the built-in app as a new process per run and reports each phase.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Profile launches of the built-in startup pipeline, one new process per run.",
        discussion: """
            Each run starts the app (theme XML, layout, PNG assets through libpng, drawing, snapshot)
            as a new process, timed from just before the spawn: "process start" is exec to main.
            With more than one run each line shows the median ± the median absolute deviation.

            Examples:
              launchprof run                                   # 10 runs after 1 warm-up
              launchprof run --runs 1                          # the classic single report
              launchprof run --manifest Fixtures/heavy/manifest.json --cold
              launchprof run --tier iphone-3gs --memory        # emulate a 2009 phone
              launchprof run --output result.json --format json --quiet
              launchprof run --touch "loading conversions" --precision 3
            """
    )

    @Option(name: .long, help: ArgumentHelp("The manifest to launch.", valueName: "path"))
    var manifest: String?

    @Option(name: .long, help: ArgumentHelp("Write the result document (JSON) to this file, atomically.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: "Output format: text (the classic report) or json (the result document).")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp("Decimal places of seconds in the text report (0-9).", valueName: "n"))
    var precision: Int = 2

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

    @Flag(name: .long, help: "Show resident memory at the end of each phase and its growth.")
    var memory = false

    @Flag(name: .long, help: "Also print min, median, mean, standard deviation, MAD, p90 and outliers per phase.")
    var stats = false

    @Flag(name: .long, help: "Print only the report or result: no progress, no warnings.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("Write the snapshot PNG here instead of the manifest's path.", valueName: "file"))
    var snapshot: String?

    @Option(name: .long, help: ArgumentHelp("After launch, run this lazy stage as a first use would, and time it (repeatable).", valueName: "name"))
    var touch: [String] = []

    func validate() throws {
        guard (0...9).contains(precision) else { throw ValidationError("--precision must be from 0 to 9, not \(precision)") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1, not \(runs)") }
        guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        guard let manifestPath = manifest ?? DefaultManifest.locate() else {
            throw InputError("no --manifest given and \(DefaultManifest.relativePath) was not found (run from the launchprof checkout, or pass --manifest)")
        }
        let loaded: Manifest
        do { loaded = try ManifestLoader.load(path: manifestPath) } catch { throw InputError(error) }
        let (emulation, tierInfo, budget) = try resolveTier()

        guard let executable = SelfExecutable.path() else { throw InputError("cannot find the launchprof executable (/proc/self/exe)") }
        var arguments = [AppMode.argument, "--manifest", manifestPath]
        if let snapshot { arguments += ["--snapshot", snapshot] }
        for name in touch { arguments += ["--touch", name] }
        var environment: [String: String] = [:]
        if let emulation { environment[AppMode.emulationVariable] = emulation.encoded }
        let launcher = AppLauncher(executable: executable, arguments: arguments, environment: environment, timeout: timeout)
        let session = LaunchSession(launcher: launcher, runs: runs, warmup: warmup,
                                    coldFiles: cold ? Self.files(of: loaded) : [])

        let progress = ProgressBar(enabled: !quiet && StandardError.isTerminal)
        let records: [RunRecord]
        do {
            records = try session.run { progress.handle($0) }
            progress.finish()
        } catch {
            progress.finish()
            throw InputError(error.description)
        }

        var result = LaunchResult(
            date: ResultMetadata.date(),
            manifest: ManifestInfo(name: loaded.name, path: manifestPath, sha256: loaded.sha256),
            host: HostInfo.current(), git: ResultMetadata.git(),
            configuration: RunConfiguration(runs: runs, warmup: warmup, mode: cold ? "cold" : "warm", timeout: timeout, tier: tierInfo),
            runs: records)
        result.warnings = Self.warnings(result, budget: budget)
        if let output {
            do { try ResultFile.write(result, to: output) } catch { throw InputError(error) }
        }
        if !quiet {
            for warning in result.warnings { StandardError.write("launchprof: warning: \(warning)\n") }
        }
        switch format {
        case .json:
            print(try JSONResultExporter().render(result), terminator: "")
        case .text:
            let options = ReportOptions(precision: precision, showMemory: memory)
            let exporter = TextReportExporter(options: options)
            if !quiet {
                print(exporter.header(result))
                if let counters = exporter.countersLine(result) { print("Counts: \(counters)") }
                if let path = snapshot ?? loaded.snapshot, loaded.stages.contains(where: { $0.run == .snapshot }) { print("Snapshot: \(path)") }
                if stats { print(StatisticsTable(options: options).render(result), terminator: "") }
                print("")
            }
            print(exporter.render(result), terminator: "")
        }
    }

    /// The emulation for `--tier`, the tier's description for the result, and its memory budget.
    private func resolveTier() throws -> (DeviceEmulation?, TierInfo?, Int?) {
        guard let tier else {
            if tiers != nil { throw ValidationError("--tiers needs --tier NAME") }
            return (nil, nil, nil)
        }
        let table: TierTable
        let device: DeviceTier
        do {
            table = try TierTable.load(userFile: tiers)
            device = try table.tier(named: tier)
        } catch {
            throw InputError(error)
        }
        let reference = device.referenceSeconds == nil ? nil : try HostReference.measure()
        let factors = device.factors(host: reference)
        let info = TierInfo(
            name: device.name,
            factors: Dictionary(uniqueKeysWithValues: factors.map { ($0.key.rawValue, $0.value) }),
            memoryBudget: device.memoryBudget,
            hostReference: reference.map { Dictionary(uniqueKeysWithValues: $0.seconds.map { ($0.key.rawValue, $0.value) }) })
        return (device.isIdentity ? nil : DeviceEmulation(factors: factors), info, device.memoryBudget)
    }

    /// Every file a launch of `manifest` reads: evicted before each run of a cold launch.
    static func files(of manifest: Manifest) -> [String] {
        var files = [manifest.path, manifest.theme] + manifest.stages.compactMap(\.file)
        files += PageCache.files(under: manifest.assets).filter { $0.hasSuffix(".png") }
        return files
    }

    /// Outlier first runs and memory over the tier's budget.
    static func warnings(_ result: LaunchResult, budget: Int?) -> [String] {
        var warnings: [String] = []
        let totals = result.runs.map(\.total)
        if totals.count >= 3, Outliers.indexes(totals).contains(0), let summary = Summary(totals) {
            warnings.append("run 1 is an outlier (total \(SecondsFormat.seconds(totals[0], precision: 3)) against a median of \(SecondsFormat.seconds(summary.median, precision: 3))): first launches after a build are often slower; try --warmup 2")
        }
        if let budget, let tier = result.configuration?.tier,
           let peak = result.runs.compactMap(\.peakResidentBytes).max(), peak > budget {
            warnings.append("peak resident memory \(MemoryFormat.mebibytes(peak)) is over the \(tier.name) memory budget of \(MemoryFormat.mebibytes(budget)): an app this large would be killed there")
        }
        return warnings
    }
}

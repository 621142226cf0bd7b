import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchPipeline

/// `launchprof run`: launches the built-in pipeline under named phases and reports the time of each.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Profile a launch of the built-in startup pipeline.",
        discussion: """
            Runs the stages of a manifest (theme XML, layout, PNG assets through libpng, drawing,
            snapshot) as named phases, timed from the top of main, and prints one line per phase.

            Examples:
              launchprof run
              launchprof run --manifest Fixtures/heavy/manifest.json
              launchprof run --output result.json --format json
              launchprof run --touch "loading conversions" --precision 3
              launchprof run --snapshot /tmp/Loading.png
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

    @Option(name: .long, help: ArgumentHelp("Write the snapshot PNG here instead of the manifest's path.", valueName: "file"))
    var snapshot: String?

    @Option(name: .long, help: ArgumentHelp("After launch, run this lazy stage as a first use would, and time it (repeatable).", valueName: "name"))
    var touch: [String] = []

    func validate() throws {
        guard (0...9).contains(precision) else {
            throw ValidationError("--precision must be from 0 to 9, not \(precision)")
        }
    }

    func run() throws {
        let clock = LaunchClock.main ?? LaunchClock.startNow()
        guard let manifestPath = manifest ?? DefaultManifest.locate() else {
            throw InputError("no --manifest given and \(DefaultManifest.relativePath) was not found (run from the launchprof checkout, or pass --manifest)")
        }
        let recorder = PhaseRecorder(clock: clock)
        let pipeline: Pipeline
        do {
            let loaded = try ManifestLoader.load(path: manifestPath)
            pipeline = Pipeline(manifest: loaded, recorder: recorder)
            if let snapshot { pipeline.snapshotPath = snapshot }
            try pipeline.launch()
            for name in touch { try pipeline.touch(name) }
        } catch {
            throw InputError(error)
        }
        let run = RunRecord(index: 1, pid: Int(ProcessIdentity.pid), clock: clock, recorders: [recorder],
                            deferred: pipeline.manifest.lazyStages.map(\.name))

        let result = LaunchResult(
            date: ResultMetadata.date(),
            manifest: ManifestInfo(name: pipeline.manifest.name, path: manifestPath, sha256: pipeline.manifest.sha256),
            host: HostInfo.current(), git: ResultMetadata.git(), runs: [run])
        if let output {
            do { try ResultFile.write(result, to: output) } catch { throw InputError(error) }
        }
        switch format {
        case .json:
            print(try JSONResultExporter().render(result), terminator: "")
        case .text:
            let exporter = TextReportExporter(options: ReportOptions(precision: precision))
            print("launchprof \(launchprofVersion): \(pipeline.manifest.name) (\(manifestPath)), 1 run, \(result.host.cpuModel)")
            if let counters = exporter.countersLine(result) { print("Counts: \(counters)") }
            if let path = pipeline.snapshotPath, pipeline.snapshotBytes != nil { print("Snapshot: \(path)") }
            print("")
            print(exporter.render(result), terminator: "")
        }
    }
}

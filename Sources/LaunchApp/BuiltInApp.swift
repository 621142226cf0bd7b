#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchPipeline
import LaunchManifest

/// The built-in app: what `launchprof run` launches once per run, as a new process (the
/// `launchprof-app` executable). It runs the pipeline under phases and reports them over the line
/// protocol on file descriptor 3 (`docs/protocol.md`). It links neither the profiler's argument
/// parser nor its statistics, so what it measures is the app, not the profiler.
public enum BuiltInApp {
    struct Options: Equatable {
        var manifest = ""
        var snapshot: String?
        var writeSnapshot = true
        var touch: [String] = []
        var seed: UInt64?
        var forceDecodeRace = false
        /// `--check-tap KEY` (repeatable): check the keys (``TapCheck``) and exit, launching nothing.
        var checkTaps: [String] = []
    }

    /// Runs the app and exits: 0 after a complete report, 2 on bad input (with `--check-tap`: 0 when
    /// every key is the theme's, 2 with the refusal).
    public static func main(clock: LaunchClock, arguments: [String]) -> Never {
        let options: Options, measurement: AppMeasurement
        switch AppStart.decide(arguments: arguments, environment: .current(), valgrind: .current) {
        case .exit(let status, let message):
            if let message { write(2, message + "\n") }
            exit(status)
        case .launch(let launchOptions, let launchMeasurement):
            (options, measurement) = (launchOptions, launchMeasurement)
        }
        let recorder = PhaseRecorder(clock: clock)
        measurement.configure(recorder)
        write(AppInterface.protocolDescriptor, ProtocolWriter.greeting(mainReading: clock.originNanoseconds).joined(separator: "\n") + "\n")
        let pipeline: Pipeline
        do {
            pipeline = try launch(options, recorder)
            try serveControlChannel(pipeline)
        } catch {
            fail("\(error)")
        }
        let lines = ProtocolWriter.clock() + ProtocolWriter.report(recorders: [recorder], deferred: [], background: pipeline.backgroundReading)
        write(AppInterface.protocolDescriptor, lines.joined(separator: "\n") + "\n")
        exit(0)
    }

    /// Reads the manifest, launches the pipeline (touching the keys `--touch` names) and sends the
    /// launch's part of the report, so the launcher sees `interactive` and can send events; what
    /// follows is reported at the end.
    static func launch(_ options: Options, _ recorder: PhaseRecorder) throws -> Pipeline {
        let manifest = try recorder.phase(AppPhase.readingManifest, kind: .io) { try ManifestLoader.load(path: options.manifest) }
        let pipeline = Pipeline(manifest: manifest, recorder: recorder)
        if let snapshot = options.snapshot { pipeline.snapshotPath = snapshot }
        if let seed = options.seed { pipeline.dialogSeed = seed | 1 }
        pipeline.forceDecodeRace = options.forceDecodeRace
        if !options.writeSnapshot { pipeline.snapshotPath = nil }
        // Live progress for the launcher's progress bar; the protocol ignores x- lines.
        pipeline.onStageStart = { write(AppInterface.protocolDescriptor, ProtocolWriter.progress($0) + "\n") }
        try pipeline.launch()
        for name in options.touch { try pipeline.touch(name) }
        // The worker threads' recorders go out with the launch's: the decode workers', and the
        // preload's (joined first).
        let launch = ProtocolWriter.report(
            recorders: [recorder] + pipeline.workerRecorders + pipeline.finishPreload(), deferred: pipeline.manifest.lazyStages.map(\.name), finish: false)
        write(AppInterface.protocolDescriptor, launch.joined(separator: "\n") + "\n")
        recorder.reset()
        return pipeline
    }

    /// After the launch, the app does what the launcher sends on standard input (the control
    /// channel, `docs/protocol.md`), one line at a time, until `quit` or the end of the input:
    /// `background` runs the background step (the snapshot is saved there). Standard input at
    /// `/dev/null` ends at once.
    ///
    /// Events that came while the app was launching wait in the input: with
    /// `queueInputDuringLaunch` they are applied as soon as the app is live, in order; without it,
    /// taps made on the image of the app before it was live are lost. Each applied tap is answered
    /// with `tap <ns> <key>` (the end of the frame showing its effect), each lost one `tap-lost <key>`.
    static func serveControlChannel(_ pipeline: Pipeline) throws {
        var input = ControlInput(fd: 0)
        pipeline.recorder.recordingAfterLaunch = true
        defer { pipeline.recorder.recordingAfterLaunch = false }
        for line in input.linesAvailableNow() {
            guard try handle(line, pipeline, duringLaunch: true) else { return }
        }
        while let line = input.nextLine() {
            guard try handle(line, pipeline, duringLaunch: false) else { return }
        }
    }

    /// Does what one control line says; `false` for `quit`.
    static func handle(_ line: String, _ pipeline: Pipeline, duringLaunch: Bool) throws -> Bool {
        if line.isEmpty { return true }
        guard let command = ControlCommand(line: Substring(line)) else {
            throw PipelineError.stage(.unknownControlCommand(line: line))
        }
        switch command {
        case .background:
            try pipeline.enterBackground(state: ["display": pipeline.calculator.display])
        case .quit:
            return false
        case .foreground:
            try pipeline.enterForeground()
        case .tap(let name):
            guard let key = Calculator.key(named: name), !duringLaunch || pipeline.manifest.strategies.queueInputDuringLaunch else {
                write(AppInterface.protocolDescriptor, ProtocolWriter.tapLost(key: name) + "\n")
                return true
            }
            let shown = try pipeline.press(key)
            write(AppInterface.protocolDescriptor, ProtocolWriter.tap(shownAt: shown, key: name) + "\n")
        }
        return true
    }

    private static func fail(_ message: String) -> Never {
        write(2, message + "\n")
        exit(2)
    }

    private static func write(_ fd: Int32, _ text: String) {
        WriteAll.write(text, to: fd)
    }
}

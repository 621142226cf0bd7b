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
    struct Options {
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
        var options = Options()
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            let value = i + 1 < arguments.count ? arguments[i + 1] : ""
            switch a {
            case "--manifest": options.manifest = value; i += 1
            case "--snapshot": options.snapshot = value; i += 1
            case "--no-snapshot": options.writeSnapshot = false
            case "--force-decode-race": options.forceDecodeRace = true
            case "--touch": options.touch.append(value); i += 1
            case "--check-tap": options.checkTaps.append(value); i += 1
            case "--seed":
                guard let seed = UInt64(value) else { fail("--seed expects a whole number from 0 to \(UInt64.max), not '\(value)'") }
                options.seed = seed; i += 1
            default: fail("unknown app argument '\(a)'")
            }
            i += 1
        }
        if !options.checkTaps.isEmpty {
            if let refusal = TapCheck.refusal(manifestPath: options.manifest, keys: options.checkTaps) { fail(refusal) }
            exit(0)
        }
        let recorder = PhaseRecorder(clock: clock)
        if let metric = getenv(AppInterface.metricVariable).map({ String(cString: $0) }), metric == Metric.instructions.rawValue {
            guard CallgrindBoundaries.isCompiled else {
                fail("this launchprof was built without valgrind/callgrind.h and cannot count instructions: install valgrind (make setup), then rebuild")
            }
            guard CallgrindBoundaries.isRunningOnValgrind else {
                fail("\(AppInterface.metricVariable)=instructions, but the app is not running under Valgrind")
            }
            // Memory samples would count /proc reads as the phases' work; Valgrind's memory is not the app's anyway.
            recorder.countsInstructions = true
        } else {
            recorder.memorySamplingDepth = 1
            // System counters per phase (docs/counters.md), unless the launcher turned them off.
            recorder.recordsCounters = getenv(AppInterface.countersVariable).map { String(cString: $0) } != "0"
        }
        if let text = getenv(AppInterface.emulationVariable).map({ String(cString: $0) }), !text.isEmpty {
            guard let emulation = DeviceEmulation(encoded: text) else { fail("malformed \(AppInterface.emulationVariable) '\(text)'") }
            recorder.emulation = emulation
        }
        write(AppInterface.protocolDescriptor, ProtocolWriter.greeting(mainReading: clock.originNanoseconds).joined(separator: "\n") + "\n")
        let pipeline: Pipeline
        do {
            let manifest = try recorder.phase(AppPhase.readingManifest, kind: .io) { try ManifestLoader.load(path: options.manifest) }
            pipeline = Pipeline(manifest: manifest, recorder: recorder)
            if let snapshot = options.snapshot { pipeline.snapshotPath = snapshot }
            if let seed = options.seed { pipeline.dialogSeed = seed | 1 }
            pipeline.forceDecodeRace = options.forceDecodeRace
            if !options.writeSnapshot { pipeline.snapshotPath = nil }
            // Live progress for the launcher's progress bar; the protocol ignores x- lines.
            pipeline.onStageStart = { write(AppInterface.protocolDescriptor, ProtocolWriter.progress($0) + "\n") }
            try pipeline.launch()
            for name in options.touch { try pipeline.touch(name) }
            // The launch is over: its part of the report goes out now, so the launcher sees
            // `interactive` and can send events; what follows is reported at the end.
            // The worker threads' recorders go out with the launch's: the decode workers', and the
            // preload's (joined first).
            let launch = ProtocolWriter.report(
                recorders: [recorder] + pipeline.workerRecorders + pipeline.finishPreload(), deferred: pipeline.manifest.lazyStages.map(\.name), finish: false)
            write(AppInterface.protocolDescriptor, launch.joined(separator: "\n") + "\n")
            recorder.reset()
            try serveControlChannel(pipeline)
        } catch {
            fail("\(error)")
        }
        let lines = ProtocolWriter.report(recorders: [recorder], deferred: [], background: pipeline.backgroundReading)
        write(AppInterface.protocolDescriptor, lines.joined(separator: "\n") + "\n")
        exit(0)
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
            throw PipelineError(
                "the control channel sent '\(ProtocolWriter.escape(String(line.prefix(80))))', which the app does not know (docs/protocol.md lists tap, background, foreground and quit)"
            )
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

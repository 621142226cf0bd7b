// `make bench`: timing goals live here, never in unit tests. Every comparison is a ratio of two
// figures measured in this same run, so a slow or busy machine shifts both sides alike.
#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchPipeline
import LaunchRunner
import LaunchManifest
import LaunchTiers

/// Median of `samples` measurements of `body`, in nanoseconds per operation (`operations` per call).
func measure(samples: Int = 301, operations: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    times.reserveCapacity(samples)
    for _ in 0..<samples {
        let start = MonotonicClock.nanoseconds()
        body()
        times.append(Double(MonotonicClock.nanoseconds() - start) / Double(operations))
    }
    times.sort()
    return times[times.count / 2]
}

@inline(never)
func consume(_ value: UInt64) {
    if value == 42 { print("") }
}

func benchRecorder() -> Bool {
    let batch = 200
    let recorder = PhaseRecorder(clock: .startNow(), capacity: batch)
    let names = (0..<batch).map { "phase \($0)" }
    var sink: UInt64 = 0
    // Warm up caches and branch predictors.
    for _ in 0..<1000 { sink &+= MonotonicClock.nanoseconds() }
    // The three are measured in alternation, sample by sample, so drift on a shared machine touches
    // all of them alike; each figure is the median sample.
    var bareSamples: [Double] = [], pairSamples: [Double] = [], closureSamples: [Double] = []
    for _ in 0..<301 {
        bareSamples.append(
            measure(samples: 1, operations: batch) {
                for _ in 0..<batch {
                    sink &+= MonotonicClock.nanoseconds()
                    sink &+= MonotonicClock.nanoseconds()
                }
            })
        pairSamples.append(
            measure(samples: 1, operations: batch) {
                for i in 0..<batch {
                    let token = recorder.begin(names[i])
                    recorder.end(token)
                }
            })
        recorder.reset()
        closureSamples.append(
            measure(samples: 1, operations: batch) {
                for i in 0..<batch { recorder.phase(names[i]) {} }
            })
        recorder.reset()
    }
    let bare = bareSamples.sorted()[150], pair = pairSamples.sorted()[150], closure = closureSamples.sorted()[150]
    consume(sink)
    let ratio = pair / bare
    print("recorder: two bare clock reads      \(format(bare)) ns")
    print("recorder: begin + end               \(format(pair)) ns  (ratio \(format(ratio))x, goal <= 1.30x)")
    print("recorder: phase(name) { }           \(format(closure)) ns  (ratio \(format(closure / bare))x)")
    return ratio <= 1.3
}

func benchPipeline() throws {
    func launch(_ path: String) throws -> Double {
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: try ManifestLoader.load(path: path), recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        return clock.elapsedSeconds()
    }
    var light: [Double] = [], heavy: [Double] = []
    for _ in 0..<7 {
        light.append(try launch("Fixtures/default/manifest.json"))
        heavy.append(try launch("Fixtures/heavy/manifest.json"))
    }
    light.sort()
    heavy.sort()
    let l = light[light.count / 2], h = heavy[heavy.count / 2]
    print("pipeline: default launch (in-process, no file written)  \(format(l * 1000)) ms")
    print("pipeline: heavy launch                                   \(format(h * 1000)) ms  (\(format(h / l))x the default)")
}

func format(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return String(scaled)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "gate", arguments.count > 1, arguments[1] == "functions" {
    // gate functions TRIALS: `check --functions` names the function given more work (issue 29).
    do { try FunctionGateBenchmark(trials: arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20).run() } catch {
        print("gate benchmark failed: \(error)")
        exit(1)
    }
} else if arguments.first == "counters-cost" {
    // counters-cost [ROUNDS]: what the system counters add to the launch (docs/counters.md).
    CountersCostBenchmark(rounds: arguments.count > 1 ? Int(arguments[1]) ?? 20 : 20).run()
} else if arguments.first == "functions-cost" {
    // functions-cost [PAIRS]: the wall time --functions adds to --metric instructions.
    do { try FunctionCostBenchmark(pairs: arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5).run() } catch {
        print("functions benchmark failed: \(error)")
        exit(1)
    }
} else if arguments.first == "sample-cost" {
    // sample-cost [PAIRS]: what --sample adds to the launch's total at its default rate.
    do { try SampleCostBenchmark(pairs: arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5).run() } catch {
        print("sample: FAILED: \(error)")
        exit(1)
    }
} else if arguments.first == "gate", arguments.count > 1, arguments[1] == "program" {
    // gate program NO_CHANGE_TRIALS CHANGE_TRIALS: the instruction gate for a C program.
    let noChange = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
    let change = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
    do {
        try ProgramGateBenchmark(noChangeTrials: noChange, changeTrials: change).run()
    } catch {
        print("gate benchmark failed: \(error)")
        exit(1)
    }
} else if arguments.first == "gate" {
    // gate MODE NO_CHANGE_TRIALS CHANGE_TRIALS [PERCENT...], MODE one of instructions, time-auto, time-10;
    // the percentages pick the change cells (default 1 2 5 10).
    guard arguments.count > 1, let mode = GateBenchmark.Mode(rawValue: arguments[1]) else {
        print("usage: launchprof-bench gate instructions|time-auto|time-10|time-tier|program [no-change trials] [trials per change] [change percent...]")
        exit(2)
    }
    let noChange = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
    let change = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
    var bench = GateBenchmark(mode: mode, noChangeTrials: noChange, changeTrials: change)
    let percents = arguments.dropFirst(4).compactMap { Double($0) }.filter { $0 > 0 && $0 <= 100 }
    if !percents.isEmpty { bench.changePercents = percents } else if mode == .timeTier { bench.changePercents = [10] }
    do {
        try bench.run()
    } catch {
        print("gate benchmark failed: \(error)")
        exit(1)
    }
} else if arguments.first == "diff-scale" {
    // diff-scale [PHASES RUNS]: only the diff-at-scale benchmark.
    var bench = DiffScaleBenchmark()
    if arguments.count > 2, let phases = Int(arguments[1]), let runs = Int(arguments[2]), phases > 0, runs > 0 { bench.phases = phases; bench.runs = runs }
    bench.report()
} else if arguments.first == "encode" {
    SnapshotEncodeBenchmark().report()
    CoalescedLayoutBenchmark().report()
    BackgroundDecodeBenchmark().report()
} else if arguments.first == "throttle" {
    // throttle [cgroup-v1|cgroup-v2|signals]: only the throttling benchmark, for one mechanism or each.
    ThrottleBenchmark(only: arguments.count > 1 ? ThrottleMechanism(optionName: arguments[1]) : nil).report()
} else if arguments.first == "throttle-short" {
    // throttle-short: only the short-program cells (issue 27 item 5), each mechanism alternated.
    ThrottleBenchmark().reportShortPrograms()
} else if arguments.first == "throttle-limits" {
    // throttle-limits: only the documented limits (sleeping, threads on one and two cores).
    ThrottleBenchmark().reportLimits()
} else if arguments.first == "export" {
    // export [SIZE...]: every export of a result and of a comparison at 10⁴ and 10⁵ phases and threads.
    var bench = ExportScaleBenchmark()
    let sizes = arguments.dropFirst().compactMap { Int($0) }.filter { $0 > 0 && $0 <= 1_000_000 }
    if !sizes.isEmpty { bench.sizes = sizes }
    bench.report()
} else if arguments.first == "change-points" || arguments.first == "history" {
    // change-points [DIR] (or history [DIR]): only change-point detection (DIR: result files kept by a previous run).
    var bench = HistoryDetectionBenchmark()
    if arguments.count > 1 { bench.reuse = arguments[1] }
    bench.report()
} else if arguments.first == "tier-drift" {
    // tier-drift [INVOCATIONS RUNS]: what moves a tier's median between separate invocations (issue 27, item 4).
    var bench = TierDriftBenchmark()
    if arguments.count > 2, let invocations = Int(arguments[1]), let runs = Int(arguments[2]), invocations > 0, runs > 0 {
        bench.invocations = invocations
        bench.runs = runs
    }
    bench.report()
} else if arguments.first == "calibration" {
    CalibrationBenchmark().report()
} else if arguments.first == "coalesced" {
    CoalescedLayoutBenchmark().report()
} else if arguments.first == "xml" {
    XMLBenchmark().report()
} else if arguments.first == "xml-profile" {
    // xml-profile [N] [parse|read]: the app's XML side alone, for a profiler.
    XMLBenchmark.profile(iterations: arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200, endToEnd: arguments.count > 2 && arguments[2] == "read")
} else if arguments.first == "xml-worker" {
    // xml-worker parse|read FILE N: the app's side of the XML benchmark, in a process of its own.
    guard arguments.count == 4, ["parse", "read"].contains(arguments[1]), let count = Int(arguments[3]), count > 0, count <= 1_000_000 else {
        print("usage: launchprof-bench xml-worker parse|read FILE RUNS (1 to 1000000)")
        exit(2)
    }
    exit(XMLBenchmark.worker(endToEnd: arguments[1] == "read", file: arguments[2], runs: count) ? 0 : 1)
} else if arguments.first == "png-decode" {
    PNGDecodeBenchmark().report()
} else if arguments.first == "png-decode-worker" {
    // png-decode-worker FILE N: the app's side of the PNG decode benchmark, in a process of its own.
    guard arguments.count == 3, let count = Int(arguments[2]), count > 0, count <= 1_000_000 else {
        print("usage: launchprof-bench png-decode-worker FILE DECODES (1 to 1000000)")
        exit(2)
    }
    exit(PNGDecodeBenchmark.worker(file: arguments[1], decodes: count) ? 0 : 1)
} else if arguments.first == "decode" {
    BackgroundDecodeBenchmark().report()
} else if arguments.first == "draw" {
    DrawingBenchmark().report()
} else if arguments.first == "exec" {
    ExecOverheadBenchmark().report()
    ExecSessionBenchmark().report()
} else if arguments.first == "history-store" {
    // history-store: only the store's cost (bytes per result, record --store).
    HistoryBenchmark().report()
} else if arguments.first == "bisect" {
    // bisect: only `launchprof bisect`'s measurements over a 64-commit range (instructions).
    BisectBenchmark().report()
} else if arguments.first == "history-concurrency" {
    // history-concurrency [LAUNCHPROF]: only 8 parallel record --store into SQLite and PostgreSQL, and PostgreSQL's bytes per result.
    var bench = HistoryConcurrencyBenchmark()
    if arguments.count > 1 { bench.executable = arguments[1] }
    bench.report()
} else if arguments.first == "dashboard" {
    // dashboard [COMMITS]: only the history dashboard in headless Chromium.
    var bench = DashboardBenchmark()
    if arguments.count > 1, let commits = Int(arguments[1]), commits > 1 { bench.commits = commits }
    bench.report()
} else if arguments.first == "exec-session" {
    ExecSessionBenchmark().report()
} else if arguments.first == "startup" {
    // startup [PAIRS]: only the app's process start beside a Swift hello world's.
    var bench = StartupBenchmark()
    if arguments.count > 1, let pairs = Int(arguments[1]), pairs > 0 { bench.pairs = pairs }
    bench.report()
} else if let unknown = arguments.first {
    // A name that is none of the above (`--help` included) would otherwise run every benchmark.
    let names = [
        "gate [functions|program]", "counters-cost", "functions-cost", "sample-cost", "diff-scale", "encode", "throttle",
        "throttle-short", "throttle-limits", "export", "change-points", "history", "tier-drift", "calibration", "coalesced", "xml",
        "xml-profile", "png-decode", "decode", "draw", "exec", "history-store", "bisect", "history-concurrency", "dashboard",
        "exec-session", "startup"
    ].joined(separator: ", ")
    let message = "launchprof-bench: unknown benchmark '\(unknown)'; without a name every benchmark runs, or one of: \(names)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(2)
} else {
    let recorderOK = benchRecorder()
    do {
        try benchPipeline()
    } catch {
        print("pipeline benchmark failed: \(error)")
    }
    if !recorderOK { print("note: the recorder missed its 1.3x goal on this run") }
    DiffScaleBenchmark().report()
    XMLBenchmark().report()
    PNGDecodeBenchmark().report()
    CriticalPathBenchmark().report()
    ExportScaleBenchmark().report()
    SnapshotEncodeBenchmark().report()
    CoalescedLayoutBenchmark().report()
    BackgroundDecodeBenchmark().report()
    DrawingBenchmark().report()
    ExecOverheadBenchmark().report()
    ExecSessionBenchmark().report()
    StartupBenchmark().report()
    HistoryBenchmark().report()
    ThrottleBenchmark().report()
    CalibrationBenchmark().report()
    HistoryDetectionBenchmark().report()
    BisectBenchmark().report()
    HistoryConcurrencyBenchmark().report()
    DashboardBenchmark().report()
}

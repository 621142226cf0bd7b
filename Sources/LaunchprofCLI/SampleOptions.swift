import ArgumentParser
import LaunchCore
import LaunchFlameGraphs
import LaunchRunner
import LaunchSampling

/// `--sample` and `--sample-rate HZ`: wall-clock samples of every run with perf, placed on the
/// phases (docs/sampling.md). Shared by `run`, `record` and `exec`.
struct SampleOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Sample every run with perf (cpu-clock, call graphs, CLOCK_MONOTONIC): the functions each phase spent its time in, under its line, in the result file and the Chrome trace (docs/sampling.md)."
        ))
    var sample = false

    @Option(range: OptionRanges.sampleRate, help: "With --sample: samples per second of each thread's CPU time, 100 to 20000 (default 1000).", valueName: "hz")
    var sampleRate: Int?

    func validate() throws {
        if sampleRate != nil, !sample { throw ValidationError("--sample-rate needs --sample") }
        if let sampleRate { try OptionRanges.sampleRate.check(sampleRate) }
        // Before any work: perf is missing or not allowed here.
        if sample, case .failure(let error) = SamplingSetup.check(rate: rate) { throw error }
    }

    /// The rate asked for, or the default.
    var rate: Int { sampleRate ?? SamplingSetup.defaultRate }

    /// Refuses `--sample` for a measurement in `metric` other than time.
    func require(_ metric: Metric) throws {
        if sample && metric == .instructions { throw InputError.refused(.sampleWithInstructions) }
    }

    /// perf started for a session, following what `thread` spawns (sampling live when it returns);
    /// `nil` without `--sample`.
    func start(following thread: SpawningThread) throws -> PerfRecording? {
        guard sample else { return nil }
        return try PerfRecording(try SamplingSetup.check(rate: rate).get(), thread: thread.tid)
    }
}

extension OptionRanges {
    /// `--sample-rate`: samples per second of CPU time.
    static let sampleRate = OptionRange("--sample-rate", SamplingSetup.rates)
}

extension PlanRunner {
    /// Runs `plan` as ``run(_:runs:)`` does, sampled by perf with `--sample`: perf starts before the
    /// first launch (warm-ups included), attached to the thread every run is spawned on (and so to
    /// the launched programs only), and its samples are placed on the measured runs' phases.
    /// `stacks` gets each phase's sampled stacks (unit `.samples`), for the flame-graph writers.
    func run(_ plan: some LaunchPlan, sampling: SampleOptions, stacks: ((StackProfile) throws -> Void)? = nil) throws -> LaunchResult {
        guard sampling.sample else { return try run(plan) }
        guard let thread = SpawningThread() else { throw InputError.usage(.samplingThreadNotStarted) }
        guard let recording = try sampling.start(following: thread) else { return try run(plan) }
        defer { recording.cleanUp() }
        let records = try self.records(plan, runs: plan.runs, spawningThread: thread)
        let summary: SampleSummary
        summary = try recording.summary(of: records)
        var result = plan.result(records)
        result.samples = summary.profiles(setup: recording.setup)
        // The stacks over every run, for `report --flame-graph` (`run`: the median run, the timeline's).
        let profile = summary.stackProfile()
        if !profile.phases.isEmpty {
            result.stacks = profile.stored(run: result.samples?.timeline?.run ?? records.first?.index ?? 1, reconstructed: false)
        }
        try stacks?(profile)
        return result
    }
}

import LaunchCore

/// Launches a program several times (warm-up runs first, then measured runs), optionally evicting
/// its files from the page cache before each one, and collects the measured runs.
public struct LaunchSession: Sendable {
    /// What a progress display is told.
    public enum Event: Sendable {
        /// Run `number` of `total` (warm-ups included) is starting.
        case starting(number: Int, total: Int, warmup: Bool)
        /// The running launch reached stage `name`.
        case stage(String)
        /// Run `number` finished after `seconds` of wall time.
        case finished(number: Int, seconds: Double)
    }

    public var launcher: ProcessLauncher
    public var runs: Int
    public var warmup: Int
    /// Files to evict before every run (a cold launch); empty for warm runs.
    public var coldFiles: [String]
    /// `--relaunch-after`: each launch starts this many seconds after the previous one was sent to
    /// the background, while that one may still be closing (its background step, a report sent on
    /// close), instead of after it exited.
    public var relaunchAfter: Double?

    /// `--prepare` / `--cleanup` of `launchprof exec`: commands run before and after every launch
    /// (warm-ups too), untimed; one that fails ends the session with its failure.
    public var prepare: ProcessLauncher?
    public var cleanup: ProcessLauncher?

    /// What makes each launch: a new process (``ProcessExecutor``), or a test double.
    public var executor: any LaunchExecutor = ProcessExecutor()

    public init(launcher: ProcessLauncher, runs: Int, warmup: Int, coldFiles: [String] = []) {
        self.launcher = launcher
        self.runs = runs
        self.warmup = warmup
        self.coldFiles = coldFiles
    }

    /// Runs every launch in order; the first failure stops the session.
    public func run(progress: @escaping @Sendable (Event) -> Void = { _ in }) throws(RunnerError) -> [RunRecord] {
        if let relaunchAfter { return try OverlappingLaunches(session: self, delay: relaunchAfter).run(progress: progress) }
        var measured: [RunRecord] = []
        var launcher = self.launcher
        launcher.onProgress = { progress(.stage($0)) }
        let total = warmup + runs
        guard total > 0 else { return [] }
        for number in 1...total {
            let isWarmup = number <= warmup
            progress(.starting(number: number, total: total, warmup: isWarmup))
            let start = MonotonicClock.nanoseconds()
            let record = try launchOnce(launcher, index: isWarmup ? 0 : measured.count + 1)
            progress(.finished(number: number, seconds: LaunchClock.seconds(MonotonicClock.nanoseconds() - start)))
            if !isWarmup { measured.append(record) }
        }
        return measured
    }

    /// Runs two sessions alternately, A B B A A B …, so both sides see the same machine state (noise on
    /// a shared machine drifts over minutes; alternating spreads it evenly). Warm-ups come first, in
    /// the same alternation. Returns the measured runs of each side.
    public static func interleaved(
        _ a: LaunchSession, _ b: LaunchSession,
        progress: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(RunnerError) -> (a: [RunRecord], b: [RunRecord]) {
        var launcherA = a.launcher, launcherB = b.launcher
        launcherA.onProgress = { progress(.stage($0)) }
        launcherB.onProgress = { progress(.stage($0)) }
        let warmup = max(a.warmup, b.warmup), runs = max(a.runs, b.runs)
        let total = 2 * (warmup + runs)
        var measuredA: [RunRecord] = [], measuredB: [RunRecord] = []
        var number = 0
        for round in 0..<(warmup + runs) {
            let isWarmup = round < warmup
            let order: [(LaunchSession, ProcessLauncher, Bool)] =
                round % 2 == 0
                ? [(a, launcherA, true), (b, launcherB, false)] : [(b, launcherB, false), (a, launcherA, true)]
            for (session, launcher, isA) in order {
                number += 1
                progress(.starting(number: number, total: total, warmup: isWarmup))
                let start = MonotonicClock.nanoseconds()
                let index = isWarmup ? 0 : (isA ? measuredA.count : measuredB.count) + 1
                let record = try session.launchOnce(launcher, index: index)
                progress(.finished(number: number, seconds: LaunchClock.seconds(MonotonicClock.nanoseconds() - start)))
                if !isWarmup { if isA { measuredA.append(record) } else { measuredB.append(record) } }
            }
        }
        return (measuredA, measuredB)
    }

    /// Runs a `--prepare` or `--cleanup` command; its failure names the step and the command.
    private func untimed(_ launcher: ProcessLauncher, step: String) throws(RunnerError) {
        do {
            _ = try executor.launch(launcher, index: 0)
        } catch {
            throw .stepFailed(subject: "\(step) '\(launcher.arguments.last ?? launcher.executable)'", failure: error)
        }
    }

    /// One launch with this session's surroundings: the cold files evicted and `prepare` run
    /// before it, `cleanup` after it (also when it failed); none of them timed.
    func launchOnce(_ launcher: ProcessLauncher, index: Int) throws(RunnerError) -> RunRecord {
        if !coldFiles.isEmpty { PageCache.evict(coldFiles) }
        if let prepare { try untimed(prepare, step: "--prepare") }
        var record: RunRecord
        do {
            record = try executor.launch(launcher, index: index)
            // Before --cleanup: what is back in the page cache now, the launch read from storage.
            if !coldFiles.isEmpty { record.coldReads = PageCache.reads(of: coldFiles) }
        } catch {
            _ = try? cleanup.map { cleanup throws(RunnerError) in try executor.launch(cleanup, index: 0) }  // The run's failure is the one to report.
            throw error
        }
        if let cleanup { try untimed(cleanup, step: "--cleanup") }
        return record
    }
}

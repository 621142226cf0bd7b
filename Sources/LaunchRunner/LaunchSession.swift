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

    public var launcher: AppLauncher
    public var runs: Int
    public var warmup: Int
    /// Files to evict before every run (a cold launch); empty for warm runs.
    public var coldFiles: [String]

    public init(launcher: AppLauncher, runs: Int, warmup: Int, coldFiles: [String] = []) {
        self.launcher = launcher
        self.runs = runs
        self.warmup = warmup
        self.coldFiles = coldFiles
    }

    /// Runs every launch in order; the first failure stops the session.
    public func run(progress: @escaping @Sendable (Event) -> Void = { _ in }) throws(LaunchFailure) -> [RunRecord] {
        var measured: [RunRecord] = []
        var launcher = self.launcher
        launcher.onProgress = { progress(.stage($0)) }
        let total = warmup + runs
        for number in 1...max(total, 1) where number <= total {
            let isWarmup = number <= warmup
            progress(.starting(number: number, total: total, warmup: isWarmup))
            if !coldFiles.isEmpty { PageCache.evict(coldFiles) }
            let start = MonotonicClock.nanoseconds()
            let record = try launcher.launch(index: isWarmup ? 0 : measured.count + 1)
            progress(.finished(number: number, seconds: LaunchClock.seconds(MonotonicClock.nanoseconds() - start)))
            if !isWarmup { measured.append(record) }
        }
        return measured
    }
}

import LaunchCore
import LaunchFunctions
import LaunchRunner

/// A launch request resolved once: the target (the built-in app, ``AppLaunchPlan``, or any program,
/// ``ProgramLaunchPlan``), its runs, warm-ups, tier and launcher. ``PlanRunner`` executes it, alone or as
/// one side of a comparison; ``result(_:)`` makes the runs a result document.
protocol LaunchPlan {
    /// Measured runs of a fixed session (`--runs N`, else the metric's default).
    var runs: Int { get }
    /// Warm-up runs before the measured ones.
    var warmup: Int { get }
    /// What `--quiet` asked for: no progress, no warnings.
    var quiet: Bool { get }
    /// A session of `runs` measured runs after `warmup` warm-ups, on the real executor.
    func session(runs: Int, warmup: Int) -> LaunchSession
    /// A result document for `records` made with this plan.
    func result(_ records: [RunRecord]) -> LaunchResult
    /// What it launches: the built-in app on a manifest, or a program.
    var target: LaunchTarget { get }
    /// Removes what the runs left behind (instruction counting's files, trace scratch).
    func cleanUp()
}

extension LaunchPlan {
    /// A launch's failure as the user reads it (`pair`: the plan was one side of a comparison).
    func failure(_ error: RunnerError, pair: Bool) -> InputError { target.failure(error, pair: pair) }

    /// A session of this plan whose launches `executor` makes.
    func session(runs: Int, warmup: Int, executor: any LaunchExecutor) -> LaunchSession {
        var session = session(runs: runs, warmup: warmup)
        session.executor = executor
        return session
    }
}

extension AppLaunchPlan: LaunchPlan {}

extension LaunchResult {
    /// `--functions`: each phase's function profile and stacks, from `records`, when `launcher`'s
    /// instruction counting collected them.
    mutating func addFunctions(of records: [RunRecord], countedBy launcher: ProcessLauncher) {
        guard launcher.instructionCounting?.collectsFunctions == true else { return }
        functions = FunctionSummary.profiles(records)
        stacks = StackSummary.stacks(records)
    }
}

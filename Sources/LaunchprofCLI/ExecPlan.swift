import LaunchCore
import LaunchResults
import LaunchRunner
import LaunchHistory

/// `launchprof exec`'s work, from its parsed options: the program profiled and reported (and stored
/// with `--record`), or compared with `--baseline-command` (``ExecComparison``). ``ExecCommand`` only
/// parses and calls ``run()``.
struct ExecPlan {
    let options: ExecOptions
    let report: ReportOutputOptions
    let comparing: ExecBaselineOptions
    /// `--record` or `--store`: the history the result is stored into, as `record` keeps it; `nil` without them.
    let history: StoreOption?
    /// The command and its arguments, after --.
    let command: [String]
    /// What makes each launch: a new process, or in tests a double with scripted runs.
    var executor: any LaunchExecutor = ProcessExecutor()

    /// The profile, start to end; with `--fail-on-regression`, exit 1 (``ExitStatus/regression``) on a regression.
    func run() throws {
        if history != nil { try ResultMetadata.requireCommit(for: "exec --record") }
        let store = try history?.openForWriting(quiet: options.launch.quiet)
        var plan = try ProgramLaunchPlan(command: try ProgramCommand(command, shell: options.shell), options: options)
        defer { plan.cleanUp() }
        plan.recordsGitState = comparing.baselineCommand != nil || history != nil || report.keepsResult
        if let baselineCommand = comparing.baselineCommand {
            let baseline = try ProgramLaunchPlan(command: try ProgramCommand([baselineCommand], shell: true, option: "--baseline-command"), options: options)
            defer { baseline.cleanUp() }
            return try compare(baseline: baseline, candidate: plan, store: store)
        }
        let result = try runner.run(plan, sampling: options.sampling)
        try save(result, into: store)
        try report.emit(result, quiet: plan.quiet, topFunctions: options.functionProfile.top)
    }

    /// The runner of this command's plans: progress on a terminal unless `--quiet`.
    private var runner: PlanRunner { PlanRunner(executor: executor, quiet: options.launch.quiet) }

    private func save(_ result: LaunchResult, into store: (any HistoryStore)?) throws {
        guard let store, let history else { return }
        try history.save(result, into: store, quiet: options.launch.quiet)
    }

    /// `--baseline-command`: both commands interleaved, then the comparison, as `check` words it.
    private func compare(baseline: ProgramLaunchPlan, candidate: ProgramLaunchPlan, store: (any HistoryStore)?) throws {
        let limits = try comparing.thresholds.thresholds()
        let schedule = options.launch.pairSchedule(comparing.adaptive, limits)
        let measured = try ExecComparison.measure(baseline, candidate, runner: runner, schedule: schedule, thresholds: limits)
        if let output = report.output { try ResultFile.write(measured.candidateResult, to: output) }
        try save(measured.candidateResult, into: store)
        let context = measured.context(precision: report.precision, topFunctions: options.functionProfile.top)
        try measured.printTable(report.format, context)
        if comparing.failOnRegression { try measured.failOnRegressions(context) }
        if !options.launch.quiet { StandardError.write(measured.summaryLine(precision: context.precision)) }
    }
}

import LaunchCore
import LaunchRunner
import LaunchTiers

/// The launch plan of a program (``LaunchTarget/program(_:name:)``), resolved once from `launchprof exec`'s
/// options: the command resolved, the launcher set up (protocol optional, ready condition, output,
/// the tier's throttle), the untimed commands around each run and the files a cold run evicts.
struct ProgramLaunchPlan: LaunchPlan {
    let command: ProgramCommand
    let launcher: ProcessLauncher
    let warmup: Int
    let runs: Int
    let timeout: Double
    let cold: Bool
    let coldFiles: [String]
    let prepare: ProcessLauncher?
    let cleanup: ProcessLauncher?
    /// What ends a launch, as the result names it.
    let end: String
    /// The profile's name: `--name`, else the command line.
    let name: String
    /// The `--trace` format, when the phases come from a startup trace.
    let trace: String?
    /// A directory of launchprof's own for per-run trace files, removed by ``cleanUp()``.
    let scratch: String?
    /// What the runs measure: time, or instructions (under Callgrind).
    let metric: Metric
    /// The emulated device (`--tier`): its cpu factor only, applied from outside.
    let tierInfo: TierInfo?
    /// How the tier was applied, as the result says it.
    let throttleText: String?
    /// Whether the result records the git state (one `git status`: a few ms, a fifth of a short
    /// program's one-run session): only a result that leaves the process needs it.
    var recordsGitState = true

    /// What `--quiet` asked for.
    let quiet: Bool

    init(command: ProgramCommand, options: ExecOptions) throws {
        self.command = command
        var program = try Self.programOptions(options)
        trace = program.trace?.format.rawValue
        scratch = try Self.makeTraceScratch(for: &program)
        end = program.readiness?.description ?? "exit"
        name = options.name ?? command.commandLine
        metric = options.measure.metric
        try options.functionProfile.require(metric)
        try options.sampling.require(metric)
        timeout = options.launch.runTimeout(metric: metric)
        quiet = options.launch.quiet
        var launcher = ProcessLauncher(executable: command.arguments[0], arguments: Array(command.arguments.dropFirst()), timeout: timeout)
        launcher.program = program
        (tierInfo, throttleText) = try options.launch.throttle(&launcher, forcing: options.throttle)
        if metric == .instructions { try Self.countInstructions(&launcher, functions: options.functionProfile.functions) }
        self.launcher = launcher
        warmup = options.launch.warmup
        runs = options.launch.fixedRuns(metric: metric)
        cold = options.launch.cold
        try Self.checkInputs(options.input)
        coldFiles = options.launch.cold ? SharedLibraries.files(of: command.arguments[0]) + options.input : []
        prepare = Self.untimedStep(options.prepare, timeout: timeout, like: program)
        cleanup = Self.untimedStep(options.cleanup, timeout: timeout, like: program)
    }

    /// Removes what the runs left in launchprof's own directory.
    func cleanUp() {
        if let scratch { FileIO.removeTemporaryDirectory(scratch) }
        launcher.instructionCounting?.cleanUp()
    }

    func session(runs: Int, warmup: Int) -> LaunchSession {
        var session = LaunchSession(launcher: launcher, runs: runs, warmup: warmup, coldFiles: coldFiles)
        session.prepare = prepare
        session.cleanup = cleanup
        return session
    }

    var target: LaunchTarget { .program(command, name: name) }
}

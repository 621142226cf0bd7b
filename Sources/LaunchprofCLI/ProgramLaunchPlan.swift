import LaunchCore
import LaunchExport
import LaunchRunner
import LaunchStats
import LaunchTiers
#if canImport(Glibc)
import Glibc
#endif

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
        (tierInfo, throttleText) = try Self.applyTier(options, to: &launcher)
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

    /// How the program is run and watched: its output, failure, expected phases, the ready
    /// condition and its grace, the spawner, the startup trace.
    static func programOptions(_ options: ExecOptions) throws -> ProgramOptions {
        var program = ProgramOptions()
        program.showOutput = options.showOutput
        program.ignoreFailure = options.ignoreFailure
        program.expectedPhases = options.expectPhase
        program.grace = options.grace
        program.readiness = try options.readiness()
        // Sampled runs are spawned directly: the sampled process is then the launched one (docs/sampling.md).
        program.spawner = options.sampling.sample ? nil : try AppExecutable.spawner()
        program.trace = try options.traceCapture()
        return program
    }

    /// git-trace2 without --trace-file: each run's events go to a file in a directory of launchprof's
    /// own, made here and returned (removed by ``cleanUp()``); `nil` when the trace has a file of its own.
    static func makeTraceScratch(for program: inout ProgramOptions) throws -> String? {
        guard program.trace?.runFile(in: "/") != program.trace?.traceFile else { return nil }
        let scratch = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-exec-")
        program.traceDirectory = scratch
        return scratch
    }

    /// `--metric instructions`: every run under Callgrind, its functions collected with `--functions`.
    static func countInstructions(_ launcher: inout ProcessLauncher, functions: Bool) throws {
        do {
            launcher = try InstructionCounting.counting(launcher)
            launcher.instructionCounting?.collectsFunctions = functions
            launcher.environment.merge(CallgrindHelper.environment()) { $1 }
        } catch {
            launcher.instructionCounting?.cleanUp()
            throw error
        }
    }

    /// Every `--input` is a regular file that exists (only files are evicted from the page cache).
    static func checkInputs(_ inputs: [String]) throws {
        for input in inputs {
            var info = stat()
            guard stat(input, &info) == 0 else { throw InputError.usage(.inputUnreadable(path: input, reason: String(cString: strerror(errno)))) }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw InputError.usage(.inputNotRegularFile(path: input))
            }
        }
    }

    /// `--prepare` or `--cleanup`: a shell command run untimed around each run, through `program`'s
    /// spawner too (born in the step's cgroup, so a daemon it starts at once is held).
    static func untimedStep(_ text: String?, timeout: Double, like program: ProgramOptions) -> ProcessLauncher? {
        text.map { text in
            var step = ProcessLauncher(executable: "/bin/sh", arguments: ["-c", text], timeout: timeout)
            step.program = ProgramOptions()
            step.program?.spawner = program.spawner
            return step
        }
    }

    /// `--tier`: the tier's cpu factor on this host (calibrated as `run` does), applied from outside by
    /// a throttle of every run, and with `--enforce-memory` its memory budget as the run's memory
    /// limit. The mechanism is chosen once (`--throttle`, else the best available) and used by every run.
    static func applyTier(_ options: ExecOptions, to launcher: inout ProcessLauncher) throws -> (TierInfo?, String?) {
        guard let tier = try options.launch.resolvedTier() else { return (nil, nil) }
        let device = tier.device
        let factor = tier.cpuFactor
        var limit: Int?
        if options.launch.enforceMemory {
            guard let budget = device.memoryBudget else { throw InputError.refused(.noMemoryBudget(tier: device.name)) }
            limit = budget
        }
        let spec = ThrottleSpec(cpuFactor: factor, memoryLimit: limit, cores: device.throttledCores)
        let forced = options.throttle
        let mechanism: ThrottleMechanism, fallback: String?
        do {
            let probe = try RunThrottle.make(spec, forcing: forced)
            (mechanism, fallback) = (probe.mechanism, probe.fallbackReason)
            probe.finish()
        } catch {
            throw InputError.about(subject: "--tier \(device.name)", error)
        }
        launcher.throttle = spec
        launcher.throttleMechanism = mechanism
        launcher.memoryLimitLabel = "\(device.name) memory budget"
        var info = tier.info
        info.factors = [.cpu: factor]
        var text = "cpu ×\(SecondsFormat.format(factor, precision: 1)) on \(spec.cores) core\(spec.cores == 1 ? "" : "s") by \(mechanism.rawValue)"
        if let fallback { text += " (no cgroup: \(fallback))" }
        if let limit { text += ", memory limit \(limit >> 20) MiB" }
        text += "; the io, decode and draw factors cannot be applied to a program from outside"
        return (info, text)
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

    func result(_ records: [RunRecord]) -> LaunchResult {
        let arguments = command.arguments
        let identity = SHA256.hex(of: SHA256.digest(Array(arguments.joined(separator: "\u{0}").utf8)))
        var result = LaunchResult(
            date: ResultMetadata.date(),
            manifest: ManifestInfo(name: name, path: "", sha256: identity),
            host: HostInfo.current(), git: recordsGitState ? ResultMetadata.git() : nil,
            configuration: RunConfiguration(runs: records.count, warmup: warmup, mode: cold ? .cold : .warm, timeout: timeout, tier: tierInfo, metric: metric),
            runs: records)
        result.command = CommandInfo(arguments: arguments, shell: command.shell, end: end, trace: trace, throttle: throttleText)
        result.warnings = LaunchWarning.warnings(for: result, memoryBudget: nil, stretchLimit: stretchLimit).map(\.message)
        if metric == .instructions, let warning = Self.uncountedPhasesWarning(records) { result.warnings.append(warning) }
        result.addFunctions(of: records, countedBy: launcher)
        return result
    }

    var target: LaunchTarget { .program(command, name: name) }

    /// The shortest program the runs' throttle stretches honestly, when a tier slows the CPU.
    var stretchLimit: StretchLimit? {
        guard let spec = launcher.throttle, spec.cpuFactor > 1, let mechanism = launcher.throttleMechanism else { return nil }
        return StretchLimit(cpuSeconds: mechanism.shortestStretchedCPUSeconds, mechanism: mechanism.rawValue)
    }

    /// Phases reported over the protocol without the client's Callgrind dumps: the program gets its
    /// whole-process count only, and the warning says why.
    static func uncountedPhasesWarning(_ records: [RunRecord]) -> String? {
        guard records.contains(where: { !$0.phases.isEmpty && $0.phases.allSatisfy { $0.instructions == nil } }) else { return nil }
        return
            "the program reported its phases but made no Callgrind dumps at their boundaries, so only its whole-process instruction count is known: a C program needs <valgrind/callgrind.h> when it is compiled (the valgrind package), the Swift client a rebuild with it installed, the Python client a C compiler for launchprof's helper (docs/instructions.md)"
    }
}

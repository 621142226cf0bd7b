import LaunchCore
import LaunchRunner
#if canImport(Glibc)
import Glibc
#endif

/// The steps that set up a program's launcher from `launchprof exec`'s options: how it is run and
/// watched, the trace's directory, instruction counting, the inputs a cold run evicts, and the
/// untimed commands around each run.
extension ProgramLaunchPlan {
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
}

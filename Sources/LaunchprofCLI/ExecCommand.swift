import ArgumentParser
import LaunchRunner

/// `launchprof exec`: profiles any program's launch, one new process per run.
struct ExecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Profile any program's launch: wall, CPU and memory per run, and its own phases if it reports them.",
        discussion: """
            Each run spawns the command (posix_spawn, no shell unless --shell) with stdin /dev/null and stdout and stderr discarded, and times it from just before the spawn to its exit, or to ready with --ready-when-…: that is the total. User and system CPU time and peak resident memory come from wait4. A non-zero exit fails the run, with its stderr shown (unless --ignore-failure).

            The program may report its own phases: LAUNCHPROF_FD names the descriptor it can write the line protocol to (docs/protocol.md; the client libraries in include/, Sources/LaunchprofClient and clients/python do it). A program that ignores it is timed as a whole.

            --metric instructions runs it under Valgrind's Callgrind instead (2 runs, counts repeat): the instructions of the whole process, and of each phase a client library reports; check gates on them (docs/instructions.md).

            Examples:
              launchprof exec --runs 5 -- python3 -c pass
              launchprof exec --cold --output tool.json -- ./build/tool --version
              launchprof exec --ready-when-port 8080 -- ./server --port 8080
              launchprof exec --expect-phase "loading config" -- ./my-app
              launchprof exec --metric instructions --output head.json -- ./my-app
              launchprof exec --baseline-command 'old/tool --version' --fail-on-regression -- new/tool --version
            """
    )

    @OptionGroup var options: ExecOptions
    @OptionGroup var report: ReportOutputOptions

    @OptionGroup var comparing: ExecBaselineOptions

    @Flag(name: .long, help: "Also store the result in the results history, keyed by commit and command, like record (--store implies it).")
    var record = false

    @OptionGroup var history: StoreOption

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        if comparing.baselineCommand == nil { try options.launch.requireFixedRuns(comparison: "use it with --baseline-command, or give a number") }
        if comparing.failOnRegression, comparing.baselineCommand == nil { throw ValidationError("--fail-on-regression needs --baseline-command") }
        if options.sampling.sample, comparing.baselineCommand != nil {
            throw ValidationError("--sample profiles one command: leave out --baseline-command (sample each side with its own exec --sample)")
        }
    }

    func run() throws {
        try plan().run()
    }

    /// This command's work, its launches made by `executor` (a double in tests).
    func plan(executor: any LaunchExecutor = ProcessExecutor()) -> ExecPlan {
        ExecPlan(
            options: options, report: report, comparing: comparing, history: record || history.store != nil ? history : nil, command: command,
            executor: executor)
    }
}

import ArgumentParser
import LaunchCore
import LaunchRunner
import LaunchTiers
import LaunchTraces

/// How `launchprof exec` launches a program: runs, surroundings, output, failure and the end of a launch.
struct ExecOptions: ParsableArguments {
    /// What every launching command shares: runs, warm-ups, timeout, cold, tier, quiet.
    @OptionGroup var launch: LaunchOptions

    @OptionGroup var measure: MetricOptions
    @OptionGroup var functionProfile: FunctionOptions
    @OptionGroup var sampling: SampleOptions

    @Flag(name: .long, help: "The command is one shell command line, run with /bin/sh -c (pipes, redirections, variables).")
    var shell = false

    @Option(name: .long, help: ArgumentHelp("A file the program reads, evicted too with --cold (repeatable).", valueName: "file"))
    var input: [String] = []

    @Option(
        name: .long, help: ArgumentHelp("A shell command run before each run (warm-ups too), untimed; its failure stops the profile.", valueName: "command"))
    var prepare: String?

    @Option(name: .long, help: ArgumentHelp("A shell command run after each run, untimed.", valueName: "command"))
    var cleanup: String?

    @Flag(
        name: .customLong("show-output"),
        help: "Copy the program's stdout and stderr to launchprof's stderr (by default they are discarded; stderr is shown when a run fails).")
    var showOutput = false

    @Flag(name: .customLong("ignore-failure"), help: "Keep runs that exit non-zero or are killed by a signal (their status is reported) instead of failing.")
    var ignoreFailure = false

    @Option(name: .customLong("expect-phase"), help: ArgumentHelp("Fail a run in which the program never reports this phase (repeatable).", valueName: "name"))
    var expectPhase: [String] = []

    @Option(
        name: .customLong("ready-when-output"),
        help: ArgumentHelp(
            "The launch ends at the first line on stdout or stderr matching this POSIX extended regular expression (grep -E syntax); the program is then stopped.",
            valueName: "regex"))
    var readyWhenOutput: String?

    @Option(
        range: OptionRanges.port, help: "The launch ends when a TCP connection to 127.0.0.1:PORT is accepted (1 to 65535); the program is then stopped.",
        valueName: "port")
    var readyWhenPort: Int?

    @Option(name: .customLong("ready-when-file"), help: ArgumentHelp("The launch ends when this file exists; the program is then stopped.", valueName: "path"))
    var readyWhenFile: String?

    @Option(
        range: OptionRanges.grace,
        help: "Seconds a ready program has between SIGTERM and SIGKILL, 0 to 3600 (default 5); its whole process group is then reaped.", valueName: "seconds")
    var grace: Double = 5

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --tier: the throttling mechanism, cgroup-v1, cgroup-v2 or signals (default: the best this machine allows).", valueName: "mechanism"),
        transform: ThrottleMechanism.parseOption)
    var throttle: ThrottleMechanism?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the phases from a startup trace the program writes: python-importtime (python -X importtime on stderr), git-trace2 (GIT_TRACE2_EVENT regions), chrome-trace (a Chrome trace JSON file, --trace-file). See docs/traces.md.",
            valueName: "format"))
    var trace: TraceFormat?

    @Option(
        name: .customLong("trace-file"),
        help: ArgumentHelp("The file the program writes its trace to (chrome-trace; optional for git-trace2).", valueName: "path"))
    var traceFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A name for this profile in the result and the results store (default: the command line), as `diff A B --for-manifest NAME` finds it.",
            valueName: "name"))
    var name: String?

    func validate() throws {
        if measure.metric == .instructions,
            let refusal = LaunchRefusal.instructions(
                launch, readiness: readyWhenOutput != nil || readyWhenPort != nil || readyWhenFile != nil, trace: trace != nil)
        {
            throw ValidationError(refusal.description)
        }
        try OptionRanges.grace.check(grace)
        if let readyWhenPort { try OptionRanges.port.check(readyWhenPort) }
        let conditions = [readyWhenOutput != nil, readyWhenPort != nil, readyWhenFile != nil].filter { $0 }.count
        if conditions > 1 { throw ValidationError("give one of --ready-when-output, --ready-when-port and --ready-when-file") }
        if readyWhenFile == "" { throw ValidationError("--ready-when-file needs a path") }
        try launch.requireOneTier()
        try launch.requireTierForTiersFile()
        if throttle != nil, launch.tier == nil { throw ValidationError("--throttle needs --tier NAME") }
        if traceFile != nil, trace == nil { throw ValidationError("--trace-file needs --trace FORMAT") }
        if let name, name.isEmpty || name.utf8.count > 200 { throw ValidationError("--name must be 1 to 200 bytes") }
    }

    /// The trace capture `--trace` and `--trace-file` ask for, checked.
    func traceCapture() throws -> TraceCapture? {
        guard let trace else { return nil }
        return try TraceCapture(format: trace, traceFile: traceFile)
    }

    /// The ready condition the options name, checked (a regular expression that does not compile is an input error).
    func readiness() throws -> Readiness? {
        if let readyWhenOutput {
            do { return .output(try ExtendedRegex(readyWhenOutput)) } catch { throw InputError.about(subject: "--ready-when-output", error) }
        }
        if let readyWhenPort { return .port(UInt16(readyWhenPort)) }
        if let readyWhenFile { return .file(readyWhenFile) }
        return nil
    }
}

extension TraceFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension ThrottleMechanism {
    /// `--throttle NAME`: one of the mechanisms' option names, else an error naming them.
    @Sendable static func parseOption(_ argument: String) throws -> ThrottleMechanism {
        guard let mechanism = ThrottleMechanism(optionName: argument) else {
            throw InputError.usage(.unknownThrottle(argument: argument))
        }
        return mechanism
    }
}

import ArgumentParser
import LaunchCore
import LaunchRunner

/// How `launchprof exec` launches a program: runs, surroundings, output, failure and the end of a launch.
struct ExecOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Measured runs, each a new process: 1 to 10000 (default 10; 2 with --metric instructions, whose counts repeat), or auto with --baseline-command (interleaved pairs until every measure is decided, within --max-runs and --max-time).",
            valueName: "n|auto"), transform: RunCount.parse)
    var runs: RunCount?

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Warm-up runs before the measured ones (not kept), 0 to 1000.", valueName: "n"),
        transform: OptionRanges.warmup.parse)
    var warmup: Int = 1

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a run may take before its process group is killed, 0.001 to 86400 (default 60; 600 with --metric instructions, under Valgrind about 50 times slower).",
            valueName: "seconds"),
        transform: OptionRanges.timeout.parse)
    var timeout: Double?

    @OptionGroup var measure: MetricOptions

    @Flag(name: .long, help: "The command is one shell command line, run with /bin/sh -c (pipes, redirections, variables).")
    var shell = false

    @Flag(
        name: .long,
        help:
            "Evict the executable, its #! interpreter, the shared libraries the dynamic loader maps for them, and every --input from the page cache before each run (a cold launch)."
    )
    var cold = false

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
        name: .customLong("ready-when-port"), parsing: .unconditional,
        help: ArgumentHelp(
            "The launch ends when a TCP connection to 127.0.0.1:PORT is accepted (1 to 65535); the program is then stopped.", valueName: "port"),
        transform: OptionRanges.port.parse)
    var readyWhenPort: Int?

    @Option(name: .customLong("ready-when-file"), help: ArgumentHelp("The launch ends when this file exists; the program is then stopped.", valueName: "path"))
    var readyWhenFile: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a ready program has between SIGTERM and SIGKILL, 0 to 3600 (default 5); its whole process group is then reaped.", valueName: "seconds"),
        transform: OptionRanges.grace.parse)
    var grace: Double = 5

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Emulate a slower device by throttling the program's CPU from outside by the tier's cpu factor (see `launchprof tiers`): each run in a cgroup of its own with 1/F of a CPU, or SIGSTOP/SIGCONT duty cycling where no cgroup can be made. The io, decode and draw factors cannot be applied to a program from outside.",
            valueName: "name"))
    var tier: String?

    @Option(name: .long, help: ArgumentHelp("A tiers file adding or overriding tiers.", valueName: "file"))
    var tiers: String?

    @Flag(
        name: .customLong("enforce-memory"),
        help: "With --tier: also set the tier's memory budget as the run's cgroup memory limit, so a program that grows past it is killed as on the device.")
    var enforceMemory = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --tier: the throttling mechanism, cgroup-v1, cgroup-v2 or signals (default: the best this machine allows).", valueName: "mechanism"))
    var throttle: String?

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

    @Flag(name: .long, help: "Print only the report or result: no header, no progress, no warnings.")
    var quiet = false

    func validate() throws {
        if case .fixed(let n) = runs { try OptionRanges.runs.check(n) }
        try OptionRanges.warmup.check(warmup)
        if let timeout { try OptionRanges.timeout.check(timeout) }
        if measure.metric == .instructions { try validateInstructions() }
        try OptionRanges.grace.check(grace)
        if let readyWhenPort { try OptionRanges.port.check(readyWhenPort) }
        let conditions = [readyWhenOutput != nil, readyWhenPort != nil, readyWhenFile != nil].filter { $0 }.count
        if conditions > 1 { throw ValidationError("give one of --ready-when-output, --ready-when-port and --ready-when-file") }
        if readyWhenFile == "" { throw ValidationError("--ready-when-file needs a path") }
        if tier == nil, tiers != nil || enforceMemory || throttle != nil {
            throw ValidationError("--tiers, --enforce-memory and --throttle need --tier NAME")
        }
        if let throttle, ThrottleMechanism(optionName: throttle) == nil {
            throw ValidationError("--throttle must be cgroup-v1, cgroup-v2 or signals, not \(PlainText.quoted(throttle))")
        }
        if traceFile != nil, trace == nil { throw ValidationError("--trace-file needs --trace FORMAT") }
        if let name, name.isEmpty || name.utf8.count > 200 { throw ValidationError("--name must be 1 to 200 bytes") }
    }

    /// The measured runs of a fixed session: `--runs N`, else 10 (2 for instruction counts, which repeat).
    var fixedRuns: Int {
        if case .fixed(let n) = runs { return n }
        return measure.metric == .instructions ? 2 : 10
    }

    /// Seconds a run may take: `--timeout`, else 60 (600 under Valgrind, about 50 times slower).
    var runTimeout: Double {
        timeout ?? (measure.metric == .instructions ? 600 : 60)
    }

    /// What cannot be combined with `--metric instructions`: the count is of the whole process up to
    /// its exit, and the same on every device.
    private func validateInstructions() throws {
        let conflicts: [(String, Bool)] = [
            (
                "--ready-when-output, --ready-when-port and --ready-when-file end a launch before the program exits, and Callgrind counts up to its exit",
                readyWhenOutput != nil || readyWhenPort != nil || readyWhenFile != nil
            ),
            ("--tier stretches time, and an instruction count is the same on every device", tier != nil),
            ("--trace reads phases from a trace's times, which have no instruction counts", trace != nil),
            ("--runs auto decides by timing noise; instruction counts repeat (give a number, or none: 2)", runs == .auto)
        ]
        if let (reason, _) = conflicts.first(where: { $0.1 }) {
            throw ValidationError("--metric instructions: \(reason)")
        }
    }

    /// The trace capture `--trace` and `--trace-file` ask for, checked.
    func traceCapture() throws -> TraceCapture? {
        guard let trace else { return nil }
        do { return try TraceCapture(format: trace, traceFile: traceFile) } catch { throw InputError(error.description) }
    }

    /// The ready condition the options name, checked (a regular expression that does not compile is an input error).
    func readiness() throws -> Readiness? {
        if let readyWhenOutput {
            do { return .output(try ExtendedRegex(readyWhenOutput)) } catch { throw InputError("--ready-when-output: \(error)") }
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

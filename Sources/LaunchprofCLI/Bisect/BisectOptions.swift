import ArgumentParser
import LaunchCore

/// `launchprof bisect`'s options: the two ends, the phase, the metric and its rule, the build, the
/// history, and the command measured at each commit (``BisectRun`` works from them).
struct BisectOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A commit where the phase is good (a git revision: hash, tag, branch, HEAD~8).", valueName: "rev"))
    var good: String

    @Option(name: .long, help: ArgumentHelp("A later commit where it is bad; --good must be its ancestor.", valueName: "rev"))
    var bad: String

    @Option(name: .long, help: ArgumentHelp("The phase to follow, by name or path (default: the whole launch's total).", valueName: "name"))
    var phase: String?

    @Option(name: .long, help: ArgumentHelp("instructions (exact, the default) or time (the sequential rule).", valueName: "instructions|time"))
    var metric: Metric = .instructions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The shell command line that builds a checked-out commit, run in its work tree (default: launchprof's own build in its repository, else none).",
            valueName: "command"))
    var build: String?

    @Option(name: .long, help: ArgumentHelp("text or json.", valueName: "format"))
    var format: BisectFormat = .text

    @OptionGroup var thresholds: ThresholdOptions
    @OptionGroup var budget: AdaptiveOptions
    @OptionGroup var history: StoreOption

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command to measure at each commit, after --, run in the work tree.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        if let phase, phase.isEmpty || phase.unicodeScalars.contains(where: { PlainText.visibleControl($0) != nil }) {
            throw ValidationError("--phase needs a phase's name without control characters (got '\(PlainText.oneLine(phase))')")
        }
        if let build, build.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) { throw ValidationError("--build needs a command line") }
    }

    /// The command after --, else launchprof's built-in app in launchprof's own repository.
    func target(in git: BisectGit) throws -> BisectMeasurer.Target {
        if !command.isEmpty { return .program(command) }
        guard git.isLaunchprof else {
            throw InputError.bisect(.noCommand)
        }
        return .builtInApp
    }
}

/// `bisect --format`.
enum BisectFormat: String, ExpressibleByArgument {
    case text, json
}

import ArgumentParser
import LaunchCore
import LaunchHistory
import LaunchStats

#if canImport(Glibc)
import Glibc
#endif

/// `launchprof bisect`: the first commit between a good and a bad one that made a phase worse.
struct BisectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the first commit that made a phase (or the launch) worse, between a good and a bad commit.",
        discussion: """
            Each step checks a commit out in a git work tree of its own (in a temporary directory, removed on every exit, Ctrl-C included), builds it with --build (a shell command line run there; launchprof's own repository is built with `swift build -c release --product launchprof-app` by default), and measures the command after -- there as `exec` does (without a command, in launchprof's own repository: the built-in app just built). Every measurement is stored in the results history (--store, LAUNCHPROF_STORE, else .launchprof/history.sqlite). The first-parent line from --good to --bad is searched.

            --metric instructions (the default) is exact: a commit is bad when its count is above the good commit's (beyond the good commit's own spread between its runs, none when counts repeat); the good commit is measured first, then at most ceil(log2(n + 1)) commits of the n after it. --metric time compares each commit with the good one under the sequential rule of `check --runs auto` (--max-runs, --max-time, the thresholds), measures again a commit it cannot decide, and stops saying so if it still cannot. A commit whose build fails is skipped, as `git bisect skip` does.

            Exit codes: 0 the first bad commit was found; 1 no answer: the bad commit is not worse than the good one (nothing to bisect), the commits left were all skipped, or a commit stayed undecided; 2 usage or input error. See docs/bisect.md.

            Examples:
              launchprof bisect --good v1.2 --bad main --build 'make' -- ./tool --version
              launchprof bisect --good HEAD~64 --bad HEAD --phase "loading config" --build 'cc -O0 -o prog prog.c' -- ./prog
              launchprof bisect --good HEAD~20 --bad HEAD --metric time --build 'make' -- ./server --check
              launchprof bisect --good HEAD~30 --bad HEAD --phase drawing    # launchprof's own built-in app
            """
    )

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

    func run() throws {
        let git = try BisectGit.current()
        let goodCommit = try git.commit(good, option: "--good")
        let badCommit = try git.commit(bad, option: "--bad")
        let commits = try git.range(good: goodCommit, bad: badCommit, names: (good, bad))
        let target = try self.target(in: git)
        let buildCommand = build ?? (git.isLaunchprof ? BisectMeasurer.selfBuild : "true")
        let store = try history.openForWriting(quiet: true)
        let measurer = BisectMeasurer(target: target, metric: metric, build: buildCommand, budget: budget, thresholds: try thresholds.thresholds())
        var bisection = BisectRun(
            git: git, measurer: measurer, phase: phase, good: goodCommit, bad: badCommit, commits: commits, store: store, storeOption: history,
            storeName: history.writeLocation(quiet: true).description)
        let report = metric == .instructions ? try bisection.instructions() : try bisection.time()
        print(format == .json ? report.json : report.text, terminator: "")
        guard report.exitStatus == ExitStatus.success else { throw ExitCode(report.exitStatus) }
    }

    /// The command after --, else launchprof's built-in app in launchprof's own repository.
    private func target(in git: BisectGit) throws -> BisectMeasurer.Target {
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

import ArgumentParser

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

    @OptionGroup var options: BisectOptions

    func run() throws {
        var bisection = try BisectRun(options: options)
        let report = options.metric == .instructions ? try bisection.instructions() : try bisection.time()
        print(options.format == .json ? report.json : report.text, terminator: "")
        guard report.exitStatus == ExitStatus.success else { throw ExitCode(report.exitStatus) }
    }
}

import LaunchCore
import LaunchRunner
import LaunchStats

#if canImport(Glibc)
import Glibc
#endif

/// How `bisect` builds and measures one commit checked out in a work tree: the build command, then
/// the program after `--` (as `exec` launches it) or the built-in app just built (as `run` does).
struct BisectMeasurer {
    enum Target {
        /// The command after `--`, run in the work tree.
        case program([String])
        /// launchprof's own repository without a command: the app its build made.
        case builtInApp
    }

    let target: Target
    let metric: Metric
    /// A shell command line, run in the work tree.
    let build: String
    /// The sequential rule's budget and thresholds (time).
    let budget: AdaptiveOptions
    let thresholds: Thresholds

    /// launchprof's own build of the app, for its repository.
    static let selfBuild = "swift build -c release --product launchprof-app"
    static let selfBuiltApp = ".build/release/launchprof-app"

    /// Runs the build command in `tree` (``BisectBuild``); its output (stdout and stderr) goes to the tree's log.
    /// `nil` when it succeeded, else its status and the log's last lines.
    func runBuild(in tree: BisectWorktree) throws -> BisectBuildFailure? {
        let status = try tree.inside { BisectBuild.run(build, log: tree.buildLog, temporary: tree.buildTemporary) }
        guard status != 0 else { return nil }
        let log = (try? FileIO.readText(tree.buildLog, limit: 1 << 20)) ?? ""
        return BisectBuildFailure(status: status, logTail: log.split(separator: "\n").suffix(3).map { PlainText.oneLine(String($0)) })
    }

    /// One measurement of what `tree` holds (instructions: exact counts, each run under Callgrind).
    func measure(in tree: BisectWorktree, commit: String) throws -> LaunchResult {
        var result = try tree.inside { () throws -> LaunchResult in
            switch target {
            case .program(let words):
                let plan = try ProgramLaunchPlan(command: try ProgramCommand(words, shell: false), options: try Self.execOptions(metric))
                defer { plan.cleanUp() }
                return try PlanRunner(quiet: true).run(plan)
            case .builtInApp:
                let plan = try appPlan(in: tree)
                defer { plan.cleanUp() }
                return try PlanRunner(quiet: true).run(plan)
            }
        }
        result.git = GitInfo(commit: commit, branch: nil, dirty: false)
        return result
    }

    /// Time: the good tree and `probe` launched alternately under the sequential rule of
    /// `check --runs auto` until it decides the row `key` (or the budget runs out).
    func compare(good: BisectWorktree, probe: BisectWorktree, key: String, commits: (good: String, probe: String)) throws -> AdaptiveCheck.Outcome {
        let check = AdaptiveCheck(thresholds: thresholds, budget: budget, quiet: true, keys: [key])
        var outcome: AdaptiveCheck.Outcome
        switch target {
        case .program(let words):
            let options = try Self.execOptions(.time)
            let a = try ProgramLaunchPlan(command: try Self.entering(good, words), options: options)
            defer { a.cleanUp() }
            let b = try ProgramLaunchPlan(command: try Self.entering(probe, words), options: options)
            defer { b.cleanUp() }
            outcome = try check.run(baseline: a, candidate: b)
            // Stored under the command as typed, not the wrapper that enters the work tree.
            outcome.baseline.command?.arguments = words
            outcome.candidate.command?.arguments = words
        case .builtInApp:
            let a = try appPlan(in: good), b = try appPlan(in: probe)
            defer { a.cleanUp(); b.cleanUp() }
            outcome = try check.run(baseline: a, candidate: b)
        }
        outcome.baseline.git = GitInfo(commit: commits.good, branch: nil, dirty: false)
        outcome.candidate.git = GitInfo(commit: commits.probe, branch: nil, dirty: false)
        return outcome
    }

    /// The values of `phase` (a phase's name or path, or a mark's row), or of the launch total, in
    /// `result` for this metric; `nil` when the result has no such phase.
    func values(of phase: String?, in result: LaunchResult) -> [Double]? {
        let table = PhaseTable(result)
        guard let phase else { return table.totals(metric) }
        guard let row = table.rows.first(where: { $0.path == phase }) ?? table.rows.first(where: { $0.name == phase }) else { return nil }
        let values = row.values(metric)
        return values.isEmpty ? nil : values
    }

    /// The phases `result` has, by path, for an error that names them.
    static func phaseNames(in result: LaunchResult) -> [String] {
        PhaseTable(result).rows.map(\.path)
    }

    // MARK: - Plans

    /// `exec`'s options for `metric`, parsed from fixed words (ArgumentParser's own error, should they
    /// ever be refused, is worded by the CLI's edge as every parse error is).
    private static func execOptions(_ metric: Metric) throws -> ExecOptions {
        try ExecOptions.parse(["--quiet", "--metric", metric.rawValue])
    }

    /// `words` run from `tree`'s directory: `/bin/sh -c 'cd "$0" && exec "$@"' TREE WORDS…` (both sides
    /// of a time comparison the same way, so the shell's start cancels out).
    private static func entering(_ tree: BisectWorktree, _ words: [String]) throws -> ProgramCommand {
        try ProgramCommand(["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", tree.path] + words, shell: false)
    }

    private func appPlan(in tree: BisectWorktree) throws -> AppLaunchPlan {
        let app = tree.path + "/" + Self.selfBuiltApp
        return try AppLaunchPlan(options: try ProfileOptions.parse(["--quiet", "--app", app]), metric: metric)
    }
}

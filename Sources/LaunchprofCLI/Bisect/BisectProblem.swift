import LaunchCore

/// What `bisect` refuses, or where it stops, before it has an answer: each case carries the facts
/// (the revisions as typed, the commits, the repository, the phase), worded by ``description``.
enum BisectProblem: Equatable, CustomStringConvertible {
    /// The current directory is not in a git work tree.
    case notInRepository
    /// `revision` (given as `option`, `--good` or `--bad`) names no commit of the repository at `repository`.
    case notACommit(option: String, revision: String, repository: String)
    /// `--good` and `--bad` (as typed) name the same commit.
    case sameCommit(good: String, bad: String)
    /// `--good` is not an ancestor of `--bad` (as typed).
    case notAncestor(good: String, bad: String)
    /// `--good` is not on `--bad`'s first-parent line: it is inside a merged branch.
    case notOnFirstParentLine(good: String, bad: String)
    /// `git rev-list good..bad` (commits) failed in `repository`.
    case cannotListCommits(good: String, bad: String, repository: String)
    /// No command after `--`, outside launchprof's own repository.
    case noCommand
    /// `git worktree add path commit` failed in `repository`.
    case cannotAddWorktree(path: String, commit: String, repository: String)
    /// The work tree at `path` cannot be made the current directory, for `reason` (`strerror`).
    case cannotEnterWorktree(path: String, reason: String)
    /// `--build` failed at an end of the range (`commit`, the good or the bad one), before any step.
    case buildFailed(end: End, commit: String, BisectBuildFailure)
    /// The followed row (`phase`, else the launch total) has no value at `commit`.
    case notMeasured(phase: String?, commit: String)
    /// The good commit's result has no total of `metric`.
    case noTotal(commit: String, metric: Metric)
    /// The good commit's result has no `phase` with `metric`; `phases` are those it has (by path).
    case noSuchPhase(phase: String, metric: Metric, commit: String, phases: [String])

    /// An end of the bisected range.
    enum End: String {
        case good, bad
    }

    var description: String {
        switch self {
        case .notInRepository:
            return "bisect needs a git repository: the current directory is not in a git work tree"
        case .notACommit(let option, let revision, let repository):
            return "\(option) \(PlainText.oneLine(revision)): not a commit of the repository at \(repository)"
        case .sameCommit(let good, let bad):
            return "--good \(PlainText.oneLine(good)) and --bad \(PlainText.oneLine(bad)) are the same commit: nothing to bisect"
        case .notAncestor(let good, let bad):
            return "--good \(PlainText.oneLine(good)) is not an ancestor of --bad \(PlainText.oneLine(bad)): the good commit must come before the bad one"
        case .notOnFirstParentLine(let good, let bad):
            return
                "--good \(PlainText.oneLine(good)) is not on the first-parent line of --bad \(PlainText.oneLine(bad)) (it is inside a merged branch): give the merge's parent on that line"
        case .cannotListCommits(let good, let bad, let repository):
            return "git rev-list \(good)..\(bad) failed in \(repository)"
        case .noCommand:
            return
                "give the command to measure at each commit after --: launchprof bisect --good REV --bad REV --build 'make' -- ./prog (only launchprof's own repository has a default: its built-in app)"
        case .cannotAddWorktree(let path, let commit, let repository):
            return "git worktree add \(path) \(commit) failed in \(repository)"
        case .cannotEnterWorktree(let path, let reason):
            return "\(path): cannot enter the work tree: \(reason)"
        case .buildFailed(let end, let commit, let failure):
            return "--build failed at the \(end.rawValue) commit \(Self.short(commit)): \(failure)"
        case .notMeasured(let phase, let commit):
            return "\(phase.map { "--phase \(PlainText.oneLine($0))" } ?? "the launch total"): not measured at \(Self.short(commit))"
        case .noTotal(let commit, let metric):
            return "the result at the good commit \(Self.short(commit)) has no \(metric.rawValue) total"
        case .noSuchPhase(let phase, let metric, let commit, let phases):
            let names = phases.map { "\"\(PlainText.oneLine($0))\"" }.joined(separator: ", ")
            return
                "--phase \(PlainText.oneLine(phase)): no such phase with \(metric.rawValue) at the good commit \(Self.short(commit)); its phases: \(names.isEmpty ? "none" : names)"
        }
    }

    /// A commit as `bisect`'s messages and progress show it: its first 10 hex digits.
    static func short(_ commit: String) -> String { String(commit.prefix(10)) }
}

/// A `--build` command that failed: its exit status (-1: killed or not started) and the last lines of its log.
struct BisectBuildFailure: Equatable, CustomStringConvertible {
    let status: Int32
    /// The log's last (up to 3) lines, each on one line.
    let logTail: [String]

    var description: String {
        let how = status < 0 ? "killed or not started" : "exit \(status)"
        return logTail.isEmpty ? "build failed (\(how))" : "build failed (\(how)): \(logTail.joined(separator: " | "))"
    }
}

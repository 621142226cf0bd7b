import LaunchCore

/// What `bisect` asks git, in the repository at ``top`` (never the current directory, which a
/// measurement moves into a work tree): revisions, the first-parent line between two commits, and
/// a commit's one-line summary.
struct BisectGit {
    /// The repository's top directory (absolute).
    let top: String

    /// The git repository the current directory is in; a usage error outside one.
    static func current() throws -> BisectGit {
        guard let top = CommandOutput.text(["git", "rev-parse", "--show-toplevel"]), !top.isEmpty else {
            throw InputError.bisect(.notInRepository)
        }
        return BisectGit(top: top)
    }

    /// The full commit `revision` names; an error naming `option` when it names none.
    func commit(_ revision: String, option: String) throws -> String {
        guard !revision.isEmpty, !revision.hasPrefix("-"),
            let hash = CommandOutput.text(["git", "-C", top, "rev-parse", "--verify", "--quiet", "\(revision)^{commit}"]), !hash.isEmpty
        else {
            throw InputError.bisect(.notACommit(option: option, revision: revision, repository: top))
        }
        return hash
    }

    /// The commits after `good` up to `bad` on `bad`'s first-parent line, oldest first (`bad` last).
    /// Refuses a `good` that is not an ancestor of `bad`, or not on that line (a commit inside a merged branch).
    func range(good: String, bad: String, names: (good: String, bad: String)) throws -> [String] {
        guard good != bad else {
            throw InputError.bisect(.sameCommit(good: names.good, bad: names.bad))
        }
        guard CommandOutput.run(["git", "-C", top, "merge-base", "--is-ancestor", good, bad]) != nil else {
            throw InputError.bisect(.notAncestor(good: names.good, bad: names.bad))
        }
        guard let text = CommandOutput.run(["git", "-C", top, "rev-list", "--first-parent", "--reverse", "\(good)..\(bad)"], limit: 64 << 20) else {
            throw InputError.bisect(.cannotListCommits(good: good, bad: bad, repository: top))
        }
        let commits = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        guard let first = commits.first, parent(of: first) == good else {
            throw InputError.bisect(.notOnFirstParentLine(good: names.good, bad: names.bad))
        }
        return commits
    }

    /// `commit`'s first parent, or `nil` for a root commit.
    func parent(of commit: String) -> String? {
        CommandOutput.text(["git", "-C", top, "rev-parse", "--verify", "--quiet", "\(commit)^1"])
    }

    /// `commit` as one line, `git log --oneline` style with its author and date, and the size of its change:
    /// `1a2b3c4 Subject (Author, 2026-11-26) · 2 files changed, 5 insertions(+), 1 deletion(-)`.
    func summary(of commit: String) -> CommitSummary {
        let line = CommandOutput.text(["git", "-C", top, "show", "-s", "--format=%h %s (%an, %as)", commit, "--"]) ?? String(commit.prefix(12))
        let stat = CommandOutput.text(["git", "-C", top, "show", "--shortstat", "--format=", commit, "--"]) ?? ""
        return CommitSummary(commit: commit, line: PlainText.oneLine(line), stat: stat.isEmpty ? "no files changed" : PlainText.oneLine(stat))
    }

    /// Whether the repository is launchprof's own (its Package.swift names the package launchprof):
    /// `bisect` without a command then builds and measures the built-in app.
    var isLaunchprof: Bool {
        guard let text = try? FileIO.readText(top + "/Package.swift", limit: 1 << 20) else { return false }
        return text.contains("name: \"launchprof\"")
    }
}

/// A commit's one-line description and the size of its change.
struct CommitSummary {
    let commit: String
    /// `1a2b3c4 Subject (Author, 2026-11-26)`.
    let line: String
    /// `2 files changed, 5 insertions(+), 1 deletion(-)`.
    let stat: String
}

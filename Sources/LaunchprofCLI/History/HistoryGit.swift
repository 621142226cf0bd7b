import LaunchCore
import LaunchHistory

/// What git says of commits, for the history: parents and dates, and the first-parent line.
enum HistoryGit {
    /// `hash`'s parents and author and commit dates from git (one `git show`); only the hash (and
    /// `branch`) when git does not know the commit (outside its repository).
    static func commitInfo(_ hash: String, branch: String? = nil) -> CommitInfo {
        var info = CommitInfo(hash: hash, branch: branch)
        guard !hash.isEmpty, let text = CommandOutput.text(["git", "show", "-s", "--format=%P%n%aI%n%cI", hash, "--"]) else { return info }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A root commit has no parents: its first line is empty (and trimmed away with the output's start).
        let fields = lines.count == 2 ? [""] + lines : lines
        guard fields.count == 3 else { return info }
        info.parents = fields[0].split(separator: " ").map(String.init)
        info.authorDate = fields[1]
        info.commitDate = fields[2]
        return info
    }

    /// The commit `result` was made at (its git state's commit and branch), as git knows it.
    static func commitInfo(of result: LaunchResult) -> CommitInfo {
        commitInfo(result.git?.commit ?? "", branch: result.git?.branch)
    }

    /// How series order their commits: the first-parent line of HEAD, oldest first, in a git
    /// work tree; by date outside one.
    static func order() -> CommitOrder {
        guard let text = CommandOutput.run(["git", "rev-list", "--first-parent", "--reverse", "HEAD"], limit: 64 << 20) else { return .date }
        let commits = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        return commits.isEmpty ? .date : .firstParent(commits)
    }
}

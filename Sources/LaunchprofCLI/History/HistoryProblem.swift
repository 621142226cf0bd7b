import LaunchCore

/// What a `history` command cannot find in the store (the store's own refusals are ``HistoryError``'s):
/// each case carries the facts, worded by ``description``.
enum HistoryProblem: Equatable, CustomStringConvertible {
    /// `history show REV`: no stored result for `commit` (what `revision` names) in the stores at `locations`.
    case noStoredResult(revision: String, commit: String, locations: [String])
    /// `history trend --phase`: no series for `phase`; `storedPhases` are those the store has (sorted).
    case noSeries(phase: String, storedPhases: [String])

    /// `--since REV` that names no git revision.
    case notARevision(since: String)
    /// `--since REV`: `git rev-list REV..HEAD` failed.
    case cannotListCommits(since: String)
    /// `history import`: a result (`path`) that names no git commit.
    case resultWithoutCommit(path: String)
    /// `history import`: no file or directory at `path`.
    case noSuchFile(path: String)

    /// How many stored phases ``noSeries(phase:storedPhases:)`` names before `…`.
    static let phasesNamed = 12

    var description: String {
        switch self {
        case .noStoredResult(let revision, let commit, let locations):
            return
                "\(revision): no stored result for commit \(commit.prefix(12)) in \(locations.joined(separator: " or ")) (`launchprof history list` lists what is stored)"
        case .notARevision(let revision):
            return "--since \(revision): not a git revision"
        case .cannotListCommits(let revision):
            return "--since \(revision): cannot list the commits after it with `git rev-list`"
        case .resultWithoutCommit(let path):
            return "\(path): the result names no git commit (made outside a work tree): the history keys results by commit"
        case .noSuchFile(let path):
            return "\(path): no such file or directory"
        case .noSeries(let phase, let phases):
            let hint =
                phases.isEmpty
                ? "the store has no results"
                : "stored phases: " + phases.prefix(Self.phasesNamed).joined(separator: ", ") + (phases.count > Self.phasesNamed ? ", …" : "")
            return "history trend: no series for phase '\(PlainText.oneLine(phase))': \(hint)"
        }
    }
}

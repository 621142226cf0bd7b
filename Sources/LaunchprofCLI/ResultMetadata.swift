import Foundation
import LaunchCore

/// The parts of a result that describe where and when it was made: date, host, git state.
/// Gathered after the launch is measured, never inside it.
enum ResultMetadata {
    /// Now, as ISO 8601 in UTC (`2026-11-25T20:55:00Z`), formatted by the C library: Foundation's
    /// formatter loads ICU's calendar data first, about 10 ms at the end of every session.
    static func date() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The git commit, branch and dirty flag of the current directory, or `nil` outside a work tree
    /// (or before its first commit). One `git status --porcelain=v2 --branch` gives all three.
    static func git() -> GitInfo? {
        guard let status = CommandOutput.text(["git", "status", "--porcelain=v2", "--branch", "--untracked-files=no"]) else { return nil }
        return parseStatus(status)
    }

    /// The ``GitInfo`` of `git status --porcelain=v2 --branch` output: `# branch.oid` is the commit
    /// (`(initial)` before the first), `# branch.head` the branch (`(detached)` without one), and any
    /// line not starting with `#` a change.
    static func parseStatus(_ text: String) -> GitInfo? {
        var commit: String?, branch: String?, dirty = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# branch.oid ") {
                commit = String(line.dropFirst("# branch.oid ".count))
            } else if line.hasPrefix("# branch.head ") {
                branch = String(line.dropFirst("# branch.head ".count))
            } else if !line.hasPrefix("#") {
                dirty = true
            }
        }
        guard let commit, commit != "(initial)" else { return nil }
        return GitInfo(commit: commit, branch: branch == "(detached)" ? nil : branch, dirty: dirty)
    }

    /// Refuses, before any run, to record outside a git work tree with a commit (the store names results by it).
    static func requireCommit(for command: String) throws {
        guard resolveRevision("HEAD") != nil else {
            throw InputError.usage(.needsCommit(command: command))
        }
    }

    /// The full commit a git revision names (`HEAD~1`, `main`, a short hash), or `nil`.
    static func resolveRevision(_ revision: String) -> String? {
        CommandOutput.text(["git", "rev-parse", "--verify", "--quiet", "\(revision)^{commit}"])
    }
}

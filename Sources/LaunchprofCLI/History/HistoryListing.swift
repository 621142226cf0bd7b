import LaunchCore
import LaunchExport
import LaunchHistory
import LaunchResults

/// What `launchprof history list` prints (a line per stored result, as a text table or JSON), and the
/// heading `history show` prints above each stored result.
enum HistoryListing {
    /// The count and stores first, then the table.
    static func text(_ entries: [HistoryEntry], places: [String]) -> String {
        let commits = Set(entries.map(\.commit.hash)).count
        var out =
            "\(entries.count) result\(entries.count == 1 ? "" : "s") at \(commits) commit\(commits == 1 ? "" : "s") in \(places.joined(separator: " and "))\n"
        guard !entries.isEmpty else { return out }
        let rows =
            [["commit", "date", "target", "tier", "metric", "total"]]
            + entries.map { entry in
                [
                    String(entry.commit.hash.prefix(12)) + (entry.dirty ? "-dirty" : ""), entry.date,
                    (entry.target.kind == .command ? "exec: " : "") + PlainText.oneLine(entry.target.name), entry.tier, entry.metric.rawValue,
                    total(entry)
                ]
            }
        out += TextTable.render(rows)
        return out.hasSuffix("\n") ? out : out + "\n"
    }

    static func total(_ entry: HistoryEntry) -> String {
        guard let total = entry.total else { return "-" }
        return entry.metric == .instructions ? InstructionFormat.count(total) : DurationFormat.format(total)
    }

    struct Line: Encodable {
        var commit: String
        var parents: [String]?
        var branch: String?
        var dirty: Bool
        var date: String
        var targetKind: String
        var target: String
        var tier: String
        var metric: String
        var environment: String
        var host: String
        var runs: Int
        var total: Double?
    }

    /// The lines as one JSON array, written as every JSON document is (``PrettyJSON``: keys sorted),
    /// ending with a newline.
    static func json(_ entries: [HistoryEntry]) throws(PrettyJSON.Unencodable) -> String {
        let lines = entries.map { e in
            Line(
                commit: e.commit.hash, parents: e.commit.parents, branch: e.commit.branch, dirty: e.dirty, date: e.date,
                targetKind: e.target.kind.rawValue, target: e.target.name, tier: e.tier, metric: e.metric.rawValue,
                environment: e.environment, host: e.host, runs: e.runCount, total: e.total)
        }
        return try PrettyJSON.text(lines)
    }

    /// The line naming a stored result: commit and branch, its key, where it is stored.
    static func heading(_ entry: HistoryEntry, store: String) -> String {
        let commit = entry.commit
        var line = "commit \(commit.hash)\(entry.dirty ? " (with uncommitted changes)" : "")"
        if let branch = commit.branch { line += " on \(PlainText.oneLine(branch))" }
        line +=
            "\n  \(entry.target.kind == .command ? "program" : "manifest") \(PlainText.oneLine(entry.target.name)), tier \(entry.tier), \(entry.metric.rawValue), "
        line += "\(entry.runCount) run\(entry.runCount == 1 ? "" : "s"), made \(entry.date) on \(PlainText.oneLine(entry.host))"
        if let date = commit.commitDate { line += "\n  committed \(date)" }
        if let parents = commit.parents, !parents.isEmpty {
            line += ", parent\(parents.count == 1 ? "" : "s") \(parents.map { String($0.prefix(12)) }.joined(separator: " "))"
        }
        return line + "\n  stored in \(store)\n"
    }
}

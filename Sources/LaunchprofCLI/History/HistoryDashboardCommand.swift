import ArgumentParser
import LaunchChangePoints
import LaunchCore
import LaunchDashboard
import LaunchHistory

/// `launchprof history dashboard --output DIR`: the history as a static site (docs/history.md).
struct HistoryDashboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Write the history as a static site: one trend chart per phase, change points marked, each commit's diff a click away.",
        discussion: """
            DIR gets index.html (the data embedded), dashboard.js and dashboard.css: open index.html from the file system, no server or network needed. One chart per series (launch total, first frame and the other marks, peak memory, each phase) of the environment, tier, metric and target chosen at the top; the change points are `history detect`'s (the same options). Hover a chart for a commit's value; click it for the commit's per-phase medians against its parent. DIR is replaced all at once; one that holds anything but a previous dashboard is refused.

            Examples:
              launchprof history dashboard --output dashboard
              launchprof history dashboard --store postgresql://ci@db/perf --output public/perf --title "app launch"
            """
    )

    @OptionGroup var store: StoreOption

    @Option(
        name: .long, help: ArgumentHelp("The directory to write the site into (made, or replaced when it holds a previous dashboard).", valueName: "directory"))
    var output: String

    @Option(name: .long, help: ArgumentHelp("The page's title.", valueName: "text"))
    var title = "launchprof history"

    @Flag(name: .long, help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var detection: DetectionOptionGroup

    func validate() throws {
        if output.isEmpty { throw ValidationError("--output needs a directory") }
    }

    func run() throws {
        do { try DashboardWriter.checkReplaceable(output) } catch { throw InputError.value(option: "--output", error) }
        let detector = try detection.detector()
        let series = try HistorySource.series(store)
        let entries = try store.allEntries().map(\.entry)
        let data: DashboardData
        do {
            data = try DashboardData(
                title: title, source: store.readLocations.map(\.description).joined(separator: ", "), order: Self.commitOrder(entries),
                environments: Dictionary(entries.map { ($0.environment, $0.host) }, uniquingKeysWith: { first, _ in first }), series: series,
                detected: detector.detect(series))
        } catch {
            throw InputError.about(subject: "history dashboard", error)
        }
        do { try DashboardWriter.write(data, to: output) } catch { throw InputError.value(option: "--output", error) }
        if !quiet {
            let charts = data.groups.reduce(0) { $0 + $1.series.count }
            let steps = data.groups.reduce(0) { $0 + $1.series.reduce(0) { $0 + $1.steps.count } }
            let directory = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
            print("wrote \(directory)/index.html: \(data.commits.count) commits, \(charts) charts in \(data.groups.count) groups, \(steps) change points")
        }
    }

    /// Every stored commit in the order the series use: HEAD's first-parent line in a git work
    /// tree (what the series hold is on it), else by commit date as the stores order them.
    static func commitOrder(_ entries: [HistoryEntry]) -> [CommitInfo] {
        var known: [String: CommitInfo] = [:]
        for entry in entries where known[entry.commit.hash] == nil || known[entry.commit.hash]?.parents == nil {
            known[entry.commit.hash] = entry.commit
        }
        switch HistoryGit.order() {
        case .firstParent(let line):
            // On the first-parent line, each commit's first parent is the one before it.
            return line.indices.map { i in
                var commit = known[line[i]] ?? CommitInfo(hash: line[i])
                if commit.parents == nil, i > 0 { commit.parents = [line[i - 1]] }
                return commit
            }
        case .date:
            var seen = Set<String>()
            return entries.sorted { a, b in
                (a.commit.commitDate ?? a.commit.authorDate ?? a.date, a.date, a.commit.hash)
                    < (b.commit.commitDate ?? b.commit.authorDate ?? b.date, b.date, b.commit.hash)
            }.compactMap { seen.insert($0.commit.hash).inserted ? known[$0.commit.hash] : nil }
        }
    }
}

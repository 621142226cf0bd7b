import ArgumentParser
import LaunchDashboard

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
        let data = try HistoryDashboardData.make(title: title, store: store, detector: try detection.detector())
        do { try DashboardWriter.write(data, to: output) } catch { throw InputError.value(option: "--output", error) }
        if !quiet { print(HistoryDashboardData.summary(data, directory: output)) }
    }
}

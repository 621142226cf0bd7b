import ArgumentParser
import LaunchChangePoints
import LaunchCore
import LaunchExport

/// `launchprof history trend PHASE`: one phase across commits, per environment, tier, metric and target.
struct HistoryTrendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "Show one phase across commits: a sparkline of every commit's median and a table of the newest, steps marked.",
        discussion: """
            PHASE is a phase path as reports show it (`decode images`, `layout/measure`), `launch total`, or a mark's row (`Time to first frame`). One sparkline and table per environment, tier, metric and target; the change points are `history detect`'s.

            Examples:
              launchprof history trend "decode images"
              launchprof history trend "launch total" --last 40
            """
    )

    @Argument(help: ArgumentHelp("The phase's path.", valueName: "phase"))
    var phase: String

    @OptionGroup var store: StoreOption

    @Option(range: OptionRanges.trendRows, parsing: .next, help: "How many of the newest commits each table lists, 1 to 10000.", valueName: "n")
    var last: Int = 20

    @Option(name: .long, help: "Output format: text or json (default: text).", transform: OutputFormat.argument(.trend))
    var format: OutputFormat = .text

    @OptionGroup var detection: DetectionOptionGroup

    func run() throws {
        let detector = try detection.detector()
        let all = try HistorySource.series(store)
        let matching = all.filter { $0.key.phase == phase }
        guard !matching.isEmpty else {
            throw InputError.history(.noSeries(phase: phase, storedPhases: Set(all.map(\.key.phase)).sorted()))
        }
        let report = TrendReport(trends: matching.map { TrendReport.Trend(series: $0, changePoints: detector.detect($0).changePoints) }, rows: last)
        print(format == .json ? try report.json() : report.text(), terminator: "")
    }
}

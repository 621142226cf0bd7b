import ArgumentParser
import LaunchChangePoints
import LaunchExport

/// `launchprof history detect`: the steps in every stored series (docs/change-points.md).
struct HistoryDetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find the commits where a phase got slower or faster: change points in every stored series.",
        discussion: """
            Each series (one phase, or first frame, interactive, the launch total, for one environment, tier, metric and target) is searched with E-Divisive means and a Mann-Whitney test of the segments either side (Apache Otava uses a t-test): deterministic, the same history gives the same answer. Wall-time steps need --max-p and --min-step; instruction counts are exact: every commit whose count differs from its parent's begins a step. Exit 0 whatever is found.

            Examples:
              launchprof history detect
              launchprof history detect --since v1.2 --format markdown
              launchprof history detect --min-step 2 --format json
            """
    )

    @OptionGroup var store: StoreOption

    @Option(name: .long, help: ArgumentHelp("Only the steps that begin after this git revision (REV..HEAD).", valueName: "rev"))
    var since: String?

    @Option(name: .long, help: "Output format: \(OutputFormat.Subject.history.list) (default: text).", transform: OutputFormat.argument(.history))
    var format: OutputFormat = .text

    @OptionGroup var detection: DetectionOptionGroup

    func run() throws {
        let detector = try detection.detector()
        let after = try since.map(HistorySource.commits(after:))
        var found = detector.detect(try HistorySource.series(store))
        if let after {
            for i in found.indices { found[i].changePoints.removeAll { !after.contains($0.commit) } }
        }
        let report = ChangePointReport(series: found, options: detector.options, since: since)
        switch format {
        case .json: print(try report.json(), terminator: "")
        case .markdown: print(report.markdown(), terminator: "")
        default: print(report.text(), terminator: "")
        }
    }
}

import ArgumentParser
import LaunchCore
import LaunchExport

/// `launchprof report`: renders a saved result.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a saved result file.",
        discussion: """
            Examples:
              launchprof run --output result.json && launchprof report result.json
              launchprof report result.json --format json --precision 3
            """
    )

    @Argument(help: ArgumentHelp("A result file written by `launchprof run --output`.", valueName: "result"))
    var result: String

    @Option(name: .long, help: "Output format: text or json.")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp("Decimal places of seconds in the text report (0-9).", valueName: "n"))
    var precision: Int = 2

    func validate() throws {
        guard (0...9).contains(precision) else {
            throw ValidationError("--precision must be from 0 to 9, not \(precision)")
        }
    }

    func run() throws {
        let loaded: LaunchResult
        do { loaded = try ResultFile.read(result) } catch { throw InputError(error) }
        switch format {
        case .json: print(try JSONResultExporter().render(loaded), terminator: "")
        case .text: print(TextReportExporter(options: ReportOptions(precision: precision)).render(loaded), terminator: "")
        }
    }
}

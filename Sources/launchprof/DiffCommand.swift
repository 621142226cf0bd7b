import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchStats

/// `launchprof diff A B`: compares two results phase by phase.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two results, phase by phase: medians, change, and a verdict with its confidence.",
        discussion: """
            A and B are result files or git revisions, looked up in the results store (see `record`). Verdicts: slower / faster (a significant change larger than the threshold), within noise (any change is smaller than the threshold), inconclusive (the runs cannot tell; it says about how many more would), added, removed. The test is Mann-Whitney U at alpha 0.01; the threshold is 5% and 2 ms by default.

            Examples:
              launchprof diff before.json after.json
              launchprof diff main HEAD --format markdown
              launchprof diff HEAD~1 HEAD --tier iphone-3gs
            """
    )

    @Argument(help: ArgumentHelp("The baseline: a result file or a git revision.", valueName: "A"))
    var baseline: String

    @Argument(help: ArgumentHelp("The candidate: a result file or a git revision.", valueName: "B"))
    var candidate: String

    @Option(name: .long, help: "Output format: text, markdown or json.")
    var format: ComparisonFormat = .text

    @OptionGroup var lookup: StoreLookupOptions
    @OptionGroup var thresholds: ThresholdOptions

    func run() throws {
        let a = try lookup.load(baseline)
        let b = try lookup.load(candidate)
        let comparison = Comparison(baseline: a, candidate: b, thresholds: try thresholds.thresholds())
        for caveat in Comparison.caveats(baseline: a, candidate: b) { StandardError.write("launchprof: warning: \(caveat)\n") }
        let context = ComparisonContext(baselineLabel: baseline, candidateLabel: candidate, precision: thresholds.precision)
        switch format {
        case .text: print(ComparisonTextTable().render(comparison, context: context), terminator: "")
        case .markdown: print(ComparisonMarkdown().render(comparison, context: context), terminator: "")
        case .json: print(try ComparisonJSON().render(comparison, context: context), terminator: "")
        }
    }
}

/// How `diff` and `check` find stored results by revision.
struct StoreLookupOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The results store.", valueName: "directory"))
    var store: String = ResultStore.defaultDirectory

    @Option(name: .customLong("for-tier"), help: ArgumentHelp("With revisions: the tier of the stored results.", valueName: "name"))
    var forTier: String?

    @Option(name: .customLong("for-manifest"), help: ArgumentHelp("With revisions: the manifest name of the stored results.", valueName: "name"))
    var forManifest: String = "default"

    /// The result a file path or git revision names; `tier` and `manifest` stand in for the options
    /// when those were not given.
    func load(_ reference: String, tier: String? = nil, manifest: String? = nil) throws -> LaunchResult {
        do {
            let path = try ResultStore(directory: store).locate(
                reference, tier: forTier ?? tier, manifest: forManifest == "default" ? (manifest ?? forManifest) : forManifest,
                resolveRevision: ResultMetadata.resolveRevision)
            return try ResultFile.read(path)
        } catch {
            throw InputError(error)
        }
    }
}

/// The thresholds of `diff` and `check`.
struct ThresholdOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Smallest relative change that counts, in percent.", valueName: "percent"))
    var threshold: Double = 5

    @Option(name: .customLong("min-change"), help: ArgumentHelp("Smallest absolute change that counts, in seconds.", valueName: "seconds"))
    var minChange: Double = 0.002

    @Option(name: .customLong("phase-threshold"), help: ArgumentHelp("A phase's own relative threshold, e.g. drawing=10 (repeatable).", valueName: "name=percent"))
    var phaseThresholds: [String] = []

    @Option(name: .long, help: ArgumentHelp("Significance level of the test.", valueName: "alpha"))
    var alpha: Double = 0.01

    @Option(name: .long, help: ArgumentHelp("Decimal places of seconds.", valueName: "n"))
    var precision: Int = 3

    func validate() throws {
        guard threshold >= 0, threshold.isFinite else { throw ValidationError("--threshold must be a percentage of at least 0") }
        guard minChange >= 0, minChange.isFinite else { throw ValidationError("--min-change must be seconds, at least 0") }
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1") }
        guard (0...9).contains(precision) else { throw ValidationError("--precision must be from 0 to 9, not \(precision)") }
        _ = try thresholds()
    }

    func thresholds() throws -> Thresholds {
        var perPhase: [String: Double] = [:]
        for item in phaseThresholds {
            guard let eq = item.lastIndex(of: "="), let value = Double(item[item.index(after: eq)...].trimmingPercent), value >= 0 else {
                throw ValidationError("--phase-threshold takes NAME=PERCENT, e.g. drawing=10, not '\(item)'")
            }
            perPhase[String(item[..<eq])] = value
        }
        return Thresholds(percent: threshold, seconds: minChange, perPhase: perPhase, alpha: alpha)
    }
}

extension Substring {
    var trimmingPercent: String { hasSuffix("%") ? String(dropLast()) : String(self) }
}

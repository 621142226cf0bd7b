import ArgumentParser
import LaunchChangePoints

extension OptionRanges {
    /// `history detect --max-p`: a change point's largest p-value (LaunchChangePoints' range).
    static let maxP = OptionRange("--max-p", DetectionOptions.pValueRange)
    /// `history detect --min-step`: the smallest change of a wall-time step, in percent.
    static let minStep = OptionRange("--min-step", 0.0...1_000.0, unit: "percent")
    /// `history detect --min-segment`: commits on each side of a change point.
    static let minSegment = OptionRange("--min-segment", 2...1_000)
    /// `history trend --last`: the newest commits a trend's table lists.
    static let trendRows = OptionRange("--last", 1...10_000)
}

/// How `history detect` and `history trend` tell a step from noise (docs/history.md).
struct DetectionOptionGroup: ParsableArguments {
    @Option(
        range: OptionRanges.maxP, parsing: .next,
        help: "A change point's largest p-value (Mann-Whitney test of the segments, Bonferroni-corrected), 1e-12 to 0.5.", valueName: "p")
    var maximumPValue: Double = DetectionOptions().maximumPValue

    @Option(
        range: OptionRanges.minStep, parsing: .next,
        help: "The smallest wall-time step reported, in percent of the median before it, 0 to 1000 (instruction counts: any step).", valueName: "percent")
    var minimumStepPercent: Double = DetectionOptions().minimumRelativeChange * 100

    @Option(
        range: OptionRanges.minSegment, parsing: .next, help: "The fewest commits on each side of a wall-time change point, 2 to 1000.", valueName: "commits")
    var minimumSegment: Int = DetectionOptions().minimumSegmentLength

    /// The detector these options make.
    func detector() throws -> ChangePointDetector {
        var options = DetectionOptions()
        options.maximumPValue = maximumPValue
        options.minimumRelativeChange = minimumStepPercent / 100
        options.minimumSegmentLength = minimumSegment
        do { return try ChangePointDetector(options: options) } catch { throw ValidationError("\(error)") }
    }
}

import ArgumentParser
import LaunchCore
import LaunchStats

/// The thresholds of `diff` and `check`.
///
/// `--threshold` is repeatable and reads `5`, `5%`, `time=5%` or `instructions=1%`. A bare value
/// applies to whichever metric is compared (a comparison compares one); a value named for a metric
/// applies to that metric only and wins over a bare one, in any order. Unset, time keeps 5% and
/// instructions 1% (``Thresholds``).
struct ThresholdOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Smallest relative change that counts, in percent of the baseline median, 0 to 1000: 5 or 5% (the compared metric), time=5%, instructions=1% (repeatable). Defaults: time 5%, instructions 1%.",
            valueName: "[metric=]percent"))
    var threshold: [String] = []

    @Option(range: OptionRanges.minChange, help: "Smallest absolute change of time that counts, in seconds, 0 to 3600 (default 0.002).", valueName: "seconds")
    var minChange: Double = 0.002

    @Option(
        name: .customLong("phase-threshold"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A phase's own relative threshold, 0 to 1000 percent, e.g. drawing=10 (repeatable).", valueName: "name=percent"))
    var phaseThresholds: [String] = []

    @Option(
        range: OptionRanges.alpha, help: "Significance level of the test, 0.0001 to 0.5 (default 0.01); with --runs auto, spent over the looks.",
        valueName: "alpha")
    var alpha: Double = 0.01

    func validate() throws {
        try OptionRanges.minChange.check(minChange)
        try OptionRanges.alpha.check(alpha)
        _ = try thresholds()
    }

    /// The thresholds the options give, every value checked against its range.
    func thresholds() throws -> Thresholds {
        let limits = try Self.relativeThresholds(threshold)
        var perPhase: [String: Double] = [:]
        for item in phaseThresholds {
            guard let eq = item.lastIndex(of: "="), eq != item.startIndex,
                let value = Self.percent(item[item.index(after: eq)...])
            else {
                throw ValidationError("--phase-threshold takes NAME=PERCENT (a percentage from 0 to 1000), e.g. drawing=10, not \(PlainText.quoted(item))")
            }
            guard OptionRanges.phaseThresholdPercent.range.contains(value) else {
                throw ValidationError("\(OptionRanges.phaseThresholdPercent.requirement), not \(PlainText.quoted(item))")
            }
            perPhase[String(item[..<eq])] = value
        }
        var thresholds = Thresholds(perPhase: perPhase, alpha: alpha)
        thresholds.time.floor = minChange
        if let percent = limits[.time] { thresholds.time.percent = percent }
        if let percent = limits[.instructions] { thresholds.instructions.percent = percent }
        return thresholds
    }

    /// The relative threshold of each metric that `--threshold` values set. A bare value sets every
    /// metric's, a named one its metric's (winning over a bare one); the same key twice is an error.
    static func relativeThresholds(_ values: [String]) throws -> [Metric: Double] {
        var bare: Double?
        var named: [Metric: Double] = [:]
        for item in values {
            let key: Metric?
            let number: Substring
            if let eq = item.firstIndex(of: "=") {
                guard let metric = Metric(rawValue: String(item[..<eq])) else {
                    throw ValidationError(
                        "--threshold takes PERCENT, time=PERCENT or instructions=PERCENT (a percentage from 0 to 1000), not \(PlainText.quoted(item))")
                }
                key = metric
                number = item[item.index(after: eq)...]
            } else {
                key = nil
                number = item[...]
            }
            guard let value = percent(number) else {
                throw ValidationError(
                    "--threshold takes PERCENT, time=PERCENT or instructions=PERCENT (a percentage from 0 to 1000, e.g. 5, 5%, instructions=1%), not \(PlainText.quoted(item))"
                )
            }
            guard OptionRanges.thresholdPercent.range.contains(value) else {
                throw ValidationError("\(OptionRanges.thresholdPercent.requirement), not \(PlainText.quoted(item))")
            }
            if let key {
                guard named[key] == nil else { throw ValidationError("--threshold \(key.rawValue)= is given twice") }
                named[key] = value
            } else {
                guard bare == nil else { throw ValidationError("--threshold without a metric is given twice") }
                bare = value
            }
        }
        var result = named
        if let bare {
            for metric in [Metric.time, .instructions] where result[metric] == nil { result[metric] = bare }
        }
        return result
    }

    /// `5` or `5%` as 5; `nil` for what is not a number. NaN and infinities are read, and then
    /// refused by the range check with the range in the message.
    static func percent(_ text: Substring) -> Double? {
        Double(text.hasSuffix("%") ? text.dropLast() : text)
    }
}

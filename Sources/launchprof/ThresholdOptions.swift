import ArgumentParser
import LaunchStats

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

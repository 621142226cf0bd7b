import LaunchCore
import LaunchStats

extension ComparisonWording {
    /// A verdict with its reason in words and numbers (docs/comparison.md, "Reading a verdict"):
    ///
    /// - `slower: +10.0% (+20.0 ms, 99% CI +9.8%…+10.2%), over the 5% threshold (--threshold); confidence 99.99%`
    /// - `within noise: +3.0% (+3.00 ms, 99% CI +2.6%…+3.4%) is real, but under the 5% threshold (--threshold): not a regression`
    /// - `within noise: +30.8% (99% CI +28.9%…+33.0%), but only +1.20 ms: under the 2.00 ms minimum change (51.3% here, --min-change), not a regression`
    /// - `within noise: +0.0% (+0 s, 99% CI −0.4%…+0.4%): the whole interval inside ±5% (--threshold), any change is smaller`
    /// - `inconclusive: +22.5% (+2.25 ms, 99% CI +16.0%…+23.5%) straddles the 2.00 ms minimum change (20% here, --min-change); ~12 more runs each would decide`
    /// - `inconclusive: +29.7% (+30.0 ms, 99% CI …) is past the 5% threshold (--threshold), but 3 runs each cannot reach significance (the rank test needs 5 each); ~2 more runs each would decide`
    ///
    /// With `check --runs auto` (``ComparisonRow/sequentialRuns``) the verdict says after how many
    /// runs each it was reached, and the interval is the sequential rule's.
    public static func verdict(_ row: ComparisonRow, _ precision: Int = DurationFormat.defaultDigits) -> String {
        let word = row.sequentialRuns.map { "\(row.verdict.rawValue) after \($0) runs each" } ?? row.verdict.rawValue
        guard let reason = reason(row, precision) else { return word }
        return "\(word): \(reason)"
    }

    /// Why a row got its verdict, without the verdict word; `nil` for added and removed rows.
    static func reason(_ row: ComparisonRow, _ precision: Int) -> String? {
        guard row.verdict != .added, row.verdict != .removed, row.change != nil else { return nil }
        let limit = Limit(row, precision)
        let deterministic = row.deterministic == true
        let measured = measured(row, precision)
        switch row.verdict {
        case .slower, .faster:
            let side = row.verdict == .slower ? "over \(limit)" : "past \(limit.negative)"
            if deterministic { return "\(measured), deterministic counts, \(side)" }
            if row.sequentialRuns != nil { return "\(measured), the whole interval \(side)" }
            return "\(measured), \(side); confidence \(confidence(row))"
        case .withinNoise:
            let consequence = (row.change ?? 0) >= 0 ? "not a regression" : "not counted as faster"
            if let only = onlyAbsolute(row, precision) {
                return "\(Self.measured(row, precision, absolute: false)), but only \(only): under \(limit), \(consequence)"
            }
            if deterministic { return "\(measured), deterministic counts, under \(limit)" }
            if inside(row) && !excludesZero(row) { return "\(measured): the whole interval inside \(limit.plusMinus), any change is smaller" }
            if inside(row) || row.intervalLower == nil { return "\(measured) is real, but under \(limit): \(consequence)" }
            // The test found a change, the median change is under the threshold, the interval reaches past it.
            return "\(measured) is real, its median under \(limit) though the interval reaches past it: \(consequence)"
        case .inconclusive:
            var text = measured
            if row.intervalLower == nil {
                text += ": no interval yet to set against \(limit)"
            } else if straddles(row) {
                text += " straddles \(limit)"
            } else if let needed = row.runsForSignificance, let runs = row.runsEach {
                text += " is past \(limit), but \(runs) run\(runs == 1 ? "" : "s") each cannot reach significance (the rank test needs \(needed) each)"
            } else if let p = row.p, let level = row.familyLevel {
                text +=
                    " is past \(limit), but not significant among the rows judged together (p = \(SecondsFormat.format(p, precision: 4)), needs under \(SecondsFormat.format(level, precision: 5)))"
            } else if let p = row.p {
                text += " is past \(limit), but the rank test is not significant yet (p = \(SecondsFormat.format(p, precision: 3)), not under --alpha)"
            }
            if row.sequentialRuns != nil {
                text += "; still undecided when the runs stopped (--max-runs, --max-time)"
            } else if let more = row.moreRunsNeeded {
                text += "; ~\(more) more run\(more == 1 ? "" : "s") each would decide"
            } else {
                text += "; more runs would decide"
            }
            return text
        case .added, .removed:
            return nil
        }
    }

    /// A row's threshold in words: `the 5% threshold (--threshold)`, or, when the absolute floor is
    /// the larger, `the 2.00 ms minimum change (20.0% here, --min-change)`.
    struct Limit: CustomStringConvertible {
        var value: String
        var kind: String
        var note: String

        init(_ row: ComparisonRow, _ precision: Int) {
            guard let threshold = row.threshold else {
                (value, kind, note) = ("", "threshold", "")
                return
            }
            if floorApplies(row) {
                value = quantity(threshold, row.metric, precision)
                kind = "minimum change"
                var notes: [String] = []
                if let base = row.baselineMedian, base > 0 { notes.append("\(trimmed(threshold / base * 100))% here") }
                if row.metric == .time { notes.append("--min-change") }
                note = notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
            } else {
                value = trimmed(row.thresholdPercent ?? 0) + "%"
                kind = "threshold"
                note = " (--threshold)"
            }
        }

        var description: String { value.isEmpty ? "the threshold" : "the \(value) \(kind)\(note)" }
        var negative: String { value.isEmpty ? "the threshold" : "the −\(value) \(kind)\(note)" }
        var plusMinus: String { value.isEmpty ? "± the threshold" : "±\(value)\(note)" }
    }

    /// `+30.8% (+1.20 ms, 99% CI +28.9%…+33.0%)`: the change in percent, in the metric's unit, and its interval.
    static func measured(_ row: ComparisonRow, _ precision: Int, absolute: Bool = true) -> String {
        var inside = absolute || row.changePercent == nil ? [change(row.change, row.metric, precision)] : []
        if row.intervalLower != nil { inside.append(interval(row)) }
        guard row.changePercent != nil else { return inside.joined(separator: ", ") }
        return percent(row.changePercent) + (inside.isEmpty ? "" : " (\(inside.joined(separator: ", ")))")
    }

    /// `the 5% threshold (--threshold)` or `the 2.00 ms minimum change (20% here, --min-change)`.
    public static func threshold(_ row: ComparisonRow, _ precision: Int) -> String {
        Limit(row, precision).description
    }

    /// Whether the absolute floor, not the relative threshold, set the row's threshold.
    static func floorApplies(_ row: ComparisonRow) -> Bool {
        guard let threshold = row.threshold, let percent = row.thresholdPercent, let base = row.baselineMedian else { return false }
        return base * percent / 100 < threshold * (1 - 1e-9)
    }

    /// For a change past the relative threshold kept under it by the absolute floor: the change
    /// (`+1.20 ms`), which is what fell short.
    static func onlyAbsolute(_ row: ComparisonRow, _ precision: Int) -> String? {
        guard floorApplies(row), let percent = row.changePercent, let relative = row.thresholdPercent, abs(percent) > relative else { return nil }
        return change(row.change, row.metric, precision)
    }

    /// Whether the row's interval holds both a change under the threshold and one over it (either sign).
    static func straddles(_ row: ComparisonRow) -> Bool {
        guard let lower = row.intervalLower, let upper = row.intervalUpper, let t = row.threshold else { return false }
        return (lower <= t && upper >= t) || (lower <= -t && upper >= -t)
    }

    /// Whether the row's interval lies wholly above or wholly below 0: a change the runs show.
    static func excludesZero(_ row: ComparisonRow) -> Bool {
        guard let lower = row.intervalLower, let upper = row.intervalUpper else { return false }
        return lower > 0 || upper < 0
    }

    /// Whether the row's interval lies inside ± its threshold.
    static func inside(_ row: ComparisonRow) -> Bool {
        guard let lower = row.intervalLower, let upper = row.intervalUpper, let t = row.threshold else { return false }
        return lower > -t && upper < t
    }

    /// `5`, `2.5`: a percentage without a trailing `.0`.
    static func trimmed(_ percent: Double) -> String {
        let text = SecondsFormat.format(percent, precision: 1)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

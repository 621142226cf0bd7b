import LaunchChangePoints
import LaunchCore
import LaunchExport

/// `check --store`: the phases of the candidate's target, tier and metric whose stored series have
/// been drifting over the newest commits — a slope with no single step (a step is `history
/// detect`'s to report), which no comparison of two commits can see.
enum HistoryDrift {
    /// How many of the newest commits a drift is looked for in.
    static let window = 30

    /// One line per drifting series, in key order (none when the history is shorter than the window).
    static func notes(_ store: StoreOption, target: String, tier: String, metric: Metric) throws -> [String] {
        let detector: ChangePointDetector
        detector = try ChangePointDetector()
        return try HistorySource.series(store)
            .filter { $0.key.target.name == target && $0.key.tier == tier && $0.key.metric == metric }
            .compactMap { series in
                detector.drift(series, overLast: window).map { drift in
                    let p = drift.pValue < 0.001 ? "p < 0.001" : "p \(SecondsFormat.format(drift.pValue, precision: 3))"
                    return "\(PlainText.quoted(series.key.phase)) has been drifting: \(ComparisonWording.percent(drift.relativeChange * 100)) over the last "
                        + "\(drift.commits) commits of the history, no single step (Mann–Kendall \(p))"
                }
            }
    }
}

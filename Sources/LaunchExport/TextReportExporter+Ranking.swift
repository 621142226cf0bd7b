import LaunchCore
import LaunchStats

extension TextReportExporter {
    /// Phases taking less than this share of the launch are folded into one line (unless `--all-phases`).
    public static let foldedShare = 0.01
    /// The shares a report tries in turn when it must fit ``screenLines`` lines: 1%, then 2%, 3% and 5%.
    public static let foldedShares = [0.01, 0.02, 0.03, 0.05]
    /// The lines of one terminal screen, which the first screen of `run` and `exec` keeps to.
    public static let screenLines = 40

    /// Lines `text` takes on a terminal `columns` wide (a longer line wraps onto more).
    public static func screenLines(of text: String, columns: Int = 80) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().reduce(0) { $0 + max(1, ($1.count + columns - 1) / columns) }
    }
    /// How many phases `Where the time goes` ranks.
    public static let rankedPhases = 5

    /// The launch's phases on the main thread, as the report lists them.
    static func isLaunchPhase(_ row: PhaseTable.Row) -> Bool {
        !row.afterLaunch && !row.isMark && !row.onWorkerThread && !row.inBackground
    }

    /// `Where the time goes`: the launch phases with the most self time (time not in a child phase),
    /// largest first, with their share of the median launch; nothing for fewer than 3 phases.
    ///
    /// ```
    /// Where the time goes (self time, share of the launch):
    ///    32%   21.9 ms  drawing/keys
    /// ```
    func rankingLines(_ result: LaunchResult, _ table: PhaseTable) -> [String] {
        let launchPaths = Set(table.rows.filter(Self.isLaunchPhase).map(\.path))
        guard launchPaths.count >= 3, let total = Summary(table.totals)?.median, total > 0 else { return [] }
        let ranked = PhaseAnalysis.selfTimeMedians(result.runs)
            .filter { launchPaths.contains($0.path) && $0.selfTime > 0 }
            .sorted { $0.selfTime != $1.selfTime ? $0.selfTime > $1.selfTime : $0.path < $1.path }
            .prefix(Self.rankedPhases)
        guard !ranked.isEmpty else { return [] }
        let times = ranked.map { DurationFormat.format($0.selfTime, digits: options.precision) }
        let width = times.map(\.count).max() ?? 0
        var lines = ["Where the time goes (self time, share of the launch):"]
        for (row, time) in zip(ranked, times) {
            let share = Self.share(row.selfTime / total)
            lines.append(
                "  " + String(repeating: " ", count: max(0, 4 - share.count)) + share + "  "
                    + String(repeating: " ", count: width - time.count) + time + "  " + PlainText.oneLine(row.path))
        }
        return lines
    }

    /// A share as a whole percentage, `<1%` below one (as the folded phases are).
    static func share(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "n/a" }
        let percent = fraction * 100
        if percent > 0 && percent < foldedShare * 100 { return "<1%" }
        return percent < 1e6 ? "\(Int(percent.rounded()))%" : ">999999%"
    }

    /// The launch phases the report folds: those under ``foldedShare`` of the median launch, and
    /// everything inside them. `time` is the sum of the outermost ones' medians.
    struct Folded {
        var paths: Set<String> = []
        var time = 0.0
        var share = TextReportExporter.foldedShare

        init(_ table: PhaseTable, share: Double?) {
            if let share { self.share = share }
            guard let share, let total = Summary(table.totals)?.median, total > 0 else { return }
            // The depths of the folded rows enclosing the current one (rows come parent first).
            var foldedDepth: Int?
            for row in table.rows where TextReportExporter.isLaunchPhase(row) {
                if let depth = foldedDepth, row.depth > depth {
                    paths.insert(row.path)
                    continue
                }
                foldedDepth = nil
                guard let median = Summary(row.durations)?.median, median < total * share else { continue }
                paths.insert(row.path)
                time += median
                foldedDepth = row.depth
            }
        }

        /// `… 12 more phases under 1% of the launch: 0.4 ms (--all-phases lists them)`, or nothing.
        func line(digits: Int) -> [String] {
            guard !paths.isEmpty else { return [] }
            let percent = DurationFormat.fixed(share * 100, decimals: 0)
            return [
                "… \(paths.count) more phase\(paths.count == 1 ? "" : "s") under \(percent)% of the launch: "
                    + "\(DurationFormat.format(time, digits: digits)) (--all-phases lists them)"
            ]
        }
    }
}

import LaunchChangePoints
import LaunchCore
import LaunchHistory

/// Where `history detect` and `history trend` read their series: the results history (`--store`,
/// `LAUNCHPROF_STORE`, else the repository's database and results directory), each series' commits
/// on HEAD's first-parent line, oldest first (by date outside a git work tree).
enum HistorySource {
    /// Every series in the stores read from, in key order. A series in more than one store (the
    /// database and a results directory not yet imported) is read from the first, the database.
    static func series(_ store: StoreOption) throws -> [ChangePointSeries] {
        let order = HistoryGit.order()
        var byKey: [SeriesKey: ChangePointSeries] = [:]
        for opened in try store.openForReading() {
            let stored: [HistorySeries]
            stored = try opened.series(order: order)
            for series in stored {
                let converted = try Self.series(series, in: opened.location)
                if byKey[converted.key] == nil { byKey[converted.key] = converted }
            }
        }
        return byKey.keys.sorted().map { byKey[$0]! }
    }

    /// A stored series as the detector takes it: instruction counts exact, everything else measured.
    static func series(_ stored: HistorySeries, in location: String) throws -> ChangePointSeries {
        let key = stored.key
        // One point per commit (a store keeps one result per commit and key; the first if not).
        var seen = Set<String>()
        let unique = stored.points.filter { seen.insert($0.commit.hash).inserted }
        do {
            let points = try unique.map { point throws(ChangePointError) in
                if key.metric == .instructions, let counts = exactCounts(point.runs) {
                    return try MeasuredPoint(commit: point.commit.hash, counts: counts)
                }
                return try MeasuredPoint(commit: point.commit.hash, measured: point.runs)
            }
            return try ChangePointSeries(key: key, points: points)
        } catch {
            throw InputError.about(
                subject: "\(location): series '\(PlainText.oneLine(key.phase))' (\(key.metric.rawValue), \(PlainText.oneLine(key.target.name)))", error)
        }
    }

    /// `runs` as whole counts, or `nil` when one is not a whole number from 0 to 2^53.
    static func exactCounts(_ runs: [Double]) -> [UInt64]? {
        var counts: [UInt64] = []
        for run in runs {
            guard run.isFinite, run >= 0, run <= 9_007_199_254_740_992, run == run.rounded() else { return nil }
            counts.append(UInt64(run))
        }
        return counts
    }

    /// The commits after `revision` in HEAD's history (`git rev-list REV..HEAD`).
    static func commits(after revision: String) throws -> Set<String> {
        guard let commit = ResultMetadata.resolveRevision(revision) else { throw InputError.history(.notARevision(since: revision)) }
        guard let bytes = CommandOutput.run(["git", "rev-list", "\(commit)..HEAD"], limit: 256 << 20) else {
            throw InputError.history(.cannotListCommits(since: revision))
        }
        return Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}

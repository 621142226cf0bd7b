import LaunchChangePoints
import LaunchCore
import LaunchResults
import LaunchStats

/// A results directory (`.launchprof/results/`): one result file per commit, tier, target and
/// metric, named by ``ResultStore/fileName(commit:tier:manifest:metric:dirty:)``. It knows no
/// parents or dates beyond the results' own: its series are in the order the caller gives, or by
/// the results' dates.
public final class DirectoryHistory: HistoryStore {
    public let store: ResultStore
    public var location: String { store.directory }

    public init(directory: String, create: Bool) throws(HistoryError) {
        store = ResultStore(directory: directory)
        if FileIO.exists(directory), !FileIO.isDirectory(directory) {
            throw .notADirectory(store: directory)
        }
        if !create, !FileIO.exists(directory) { throw .noSuchDirectory(store: directory) }
    }

    @discardableResult
    public func save(_ result: LaunchResult, commit: CommitInfo) throws(HistoryError) -> String {
        do { return try store.save(result) } catch { throw .result(error) }
    }

    private var files: [String] { FileIO.entries(of: location).filter { $0.hasSuffix(".json") }.sorted() }

    public func entries() throws(HistoryError) -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        for name in files {
            let path = "\(location)/\(name)"
            let table: TabulatedResult
            do { table = try ResultTableReader.read(path) } catch { throw .result(error) }
            entries.append(Self.entry(table, id: name))
        }
        return entries.sorted { ($0.date, $0.commit.hash, $0.id) < ($1.date, $1.commit.hash, $1.id) }
    }

    static func entry(_ result: TabulatedResult, id: String) -> HistoryEntry {
        let header = result.header
        let metric = header.configuration?.metric ?? .time
        let totals = metric == .instructions ? result.table.instructionTotals : result.table.totals
        return HistoryEntry(
            id: id, commit: CommitInfo(hash: header.git?.commit ?? "", branch: header.git?.branch), dirty: header.git?.dirty ?? false,
            environment: EnvironmentKey.of(header.host), host: EnvironmentKey.description(header.host),
            tier: header.configuration?.tier?.name ?? "host", metric: metric, target: SeriesTarget(header), date: header.date,
            runCount: result.table.runCount, total: Summary(totals)?.median)
    }

    public func document(_ entry: HistoryEntry) throws(HistoryError) -> [UInt8] {
        let path = "\(location)/\(entry.id)"
        do { return try FileIO.read(path, limit: ResultLimits.maximumFileBytes) } catch { throw .file(error) }
    }

    public func series(order: CommitOrder) throws(HistoryError) -> [HistorySeries] {
        var points: [SeriesKey: [(commit: CommitInfo, date: String, runs: [Double])]] = [:]
        for entry in try entries() where !entry.dirty {
            let path = "\(location)/\(entry.id)"
            let result: LaunchResult
            do { result = try ResultFile.read(path) } catch { throw .result(error) }
            for phase in StoredResult.phases(result, table: PhaseTable(result), metric: entry.metric) {
                let key = SeriesKey(environment: entry.environment, tier: entry.tier, metric: entry.metric, target: entry.target, phase: phase.path)
                points[key, default: []].append((entry.commit, entry.date, phase.runs))
            }
        }
        return assembleSeries(points, order: order)
    }
}

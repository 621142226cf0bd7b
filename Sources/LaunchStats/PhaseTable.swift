import LaunchCore

/// The phases of a result lined up across runs: one row per distinct phase (identified by its
/// path of names from the top, e.g. `drawing/keys`), in the order of their first appearance.
public struct PhaseTable: Sendable {
    public struct Row: Sendable, Equatable {
        /// `parent/child` names from the top level down.
        public var path: String
        public var name: String
        public var depth: Int
        public var kind: PhaseKind?
        public var afterLaunch: Bool
        /// The phase's duration in each run where it appears, in run order.
        public var durations: [Double]

        public var summary: Summary? { Summary(durations) }
    }

    public var rows: [Row]
    /// Launch totals, one per run.
    public var totals: [Double]
    /// Names of lazy phases deferred at launch (from the first run).
    public var deferred: [String]

    public init(_ result: LaunchResult) {
        var rows: [Row] = []
        var index: [String: Int] = [:]
        for run in result.runs {
            var paths: [String] = []
            paths.reserveCapacity(run.phases.count)
            for phase in run.phases {
                let path = phase.parent.map { paths[$0] + "/" + phase.name } ?? phase.name
                paths.append(path)
                if let i = index[path] {
                    rows[i].durations.append(phase.duration)
                } else {
                    index[path] = rows.count
                    rows.append(Row(path: path, name: phase.name, depth: phase.depth, kind: phase.kind,
                                    afterLaunch: phase.afterLaunch, durations: [phase.duration]))
                }
            }
        }
        self.rows = rows
        totals = result.runs.map(\.total)
        deferred = result.runs.first?.deferred ?? []
    }
}

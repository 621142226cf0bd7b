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
        /// Host durations under device emulation, in run order (empty when not emulating).
        public var hostDurations: [Double]
        /// Resident bytes at the phase's end, where sampled.
        public var residentBytes: [Int]
        /// Resident growth during the phase, where sampled.
        public var residentGrowth: [Int]
        /// Instruction counts, in run order, where counted (`--metric instructions`).
        public var instructions: [Double] = []

        /// The values of `metric` in run order (durations, or instruction counts where counted).
        public func values(_ metric: Metric) -> [Double] {
            switch metric {
            case .time: durations
            case .instructions: instructions
            }
        }

        public var summary: Summary? { Summary(durations) }
    }

    public var rows: [Row]
    /// Launch totals, one per run.
    public var totals: [Double]
    /// Launch totals without the emulated device's extra time, one per run (equal to ``totals`` on the host).
    public var hostTotals: [Double]
    /// Names of lazy phases deferred at launch (from the first run).
    public var deferred: [String]
    /// Launch instruction totals, one per run that counted them.
    public var instructionTotals: [Double]

    /// The launch totals of `metric`, one per run.
    public func totals(_ metric: Metric) -> [Double] {
        switch metric {
        case .time: totals
        case .instructions: instructionTotals
        }
    }

    public init(_ result: LaunchResult) {
        var rows: [Row] = []
        var index: [String: Int] = [:]
        for run in result.runs {
            var paths: [String] = []
            paths.reserveCapacity(run.phases.count)
            for phase in run.phases {
                let path = phase.parent.map { paths[$0] + "/" + phase.name } ?? phase.name
                paths.append(path)
                let i: Int
                if let existing = index[path] {
                    i = existing
                } else {
                    i = rows.count
                    index[path] = i
                    rows.append(Row(path: path, name: phase.name, depth: phase.depth, kind: phase.kind,
                                    afterLaunch: phase.afterLaunch, durations: [], hostDurations: [],
                                    residentBytes: [], residentGrowth: []))
                }
                rows[i].durations.append(phase.duration)
                if let host = phase.hostDuration { rows[i].hostDurations.append(host) }
                if let rss = phase.residentBytes { rows[i].residentBytes.append(rss) }
                if let growth = phase.residentGrowth { rows[i].residentGrowth.append(growth) }
                if let count = phase.instructions { rows[i].instructions.append(Double(count)) }
            }
        }
        self.rows = rows
        totals = result.runs.map(\.total)
        // Host total: the emulated total less the waiting inside the top-level launch phases.
        hostTotals = result.runs.map { run in
            run.total - run.phases.filter { $0.depth == 0 && !$0.afterLaunch }
                .reduce(0) { sum, phase in sum + (phase.hostDuration.map { phase.duration - $0 } ?? 0) }
        }
        deferred = result.runs.first?.deferred ?? []
        instructionTotals = result.runs.compactMap { $0.instructions.map(Double.init) }
    }
}

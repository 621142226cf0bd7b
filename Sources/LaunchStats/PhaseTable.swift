import LaunchCore

/// The phases of a result lined up across runs: one row per distinct phase (identified by its
/// path of names from the top, e.g. `drawing/keys`), in the order of their first appearance.
///
/// Built from a decoded result with ``init(_:)``, or directly by a streaming reader
/// (``init(rows:totals:hostTotals:instructionTotals:deferred:runCount:)``) without materialising
/// every phase record.
public struct PhaseTable: Sendable, Equatable {
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
        /// Instruction counts in the runs where they were counted (`--metric instructions`), in run
        /// order; empty when never counted (a phase without counts is never taken as 0).
        public var instructions: [Double]

        public init(path: String, name: String, depth: Int, kind: PhaseKind?, afterLaunch: Bool, durations: [Double] = [],
                    hostDurations: [Double] = [], residentBytes: [Int] = [], residentGrowth: [Int] = [], instructions: [Double] = []) {
            self.path = path
            self.name = name
            self.depth = depth
            self.kind = kind
            self.afterLaunch = afterLaunch
            self.durations = durations
            self.hostDurations = hostDurations
            self.residentBytes = residentBytes
            self.residentGrowth = residentGrowth
            self.instructions = instructions
        }

        public var summary: Summary? { Summary(durations) }

        /// The values of `metric` in run order (durations, or instruction counts where counted).
        public func values(_ metric: Metric) -> [Double] {
            switch metric {
            case .time: durations
            case .instructions: instructions
            }
        }
    }

    public var rows: [Row]
    /// Launch totals, one per run.
    public var totals: [Double]
    /// Launch totals without the emulated device's extra time, one per run (equal to ``totals`` on the host).
    public var hostTotals: [Double]
    /// Launch instruction totals, one per run that counted them.
    public var instructionTotals: [Double]
    /// Names of lazy phases deferred at launch (from the first run).
    public var deferred: [String]
    /// The number of runs.
    public var runCount: Int

    public init(rows: [Row], totals: [Double], hostTotals: [Double], instructionTotals: [Double], deferred: [String], runCount: Int) {
        self.rows = rows
        self.totals = totals
        self.hostTotals = hostTotals
        self.instructionTotals = instructionTotals
        self.deferred = deferred
        self.runCount = runCount
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
                    rows.append(Row(path: path, name: phase.name, depth: phase.depth, kind: phase.kind, afterLaunch: phase.afterLaunch))
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
        instructionTotals = result.runs.compactMap { $0.instructions.map(Double.init) }
        deferred = result.runs.first?.deferred ?? []
        runCount = result.runs.count
    }

    /// The launch totals of `metric`, one per run.
    public func totals(_ metric: Metric) -> [Double] {
        switch metric {
        case .time: totals
        case .instructions: instructionTotals
        }
    }
}

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
        /// The phase's system counters in the runs that recorded them (docs/counters.md), in run order,
        /// and its blocked seconds (wall time neither running nor waiting for a CPU) in the same runs.
        public var counters: [PhaseCounters] = []
        public var blockedTimes: [Double] = []
        /// A mark (`first frame`, `interactive`), not a phase: its "durations" are the times from the
        /// spawn to the mark, one per run that reached it. Named ``PhaseTable/markRowName(_:)``.
        public var isMark: Bool
        /// A phase of the app's background step (``PhaseRecord/background``).
        public var inBackground = false
        /// A phase recorded on a thread other than the main one (a worker's), in the first run it appears in.
        public var onWorkerThread = false

        public init(
            path: String, name: String, depth: Int, kind: PhaseKind?, afterLaunch: Bool, durations: [Double] = [],
            hostDurations: [Double] = [], residentBytes: [Int] = [], residentGrowth: [Int] = [], instructions: [Double] = [],
            isMark: Bool = false
        ) {
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
            self.isMark = isMark
        }

        /// Adds one run's counters of this phase, which lasted `duration` seconds.
        public mutating func addCounters(_ value: PhaseCounters, duration: Double) {
            counters.append(value)
            blockedTimes.append(value.blocked(duration: duration))
        }

        /// A mark's row: the time from the spawn to mark `mark` in each run that reached it.
        public static func mark(_ mark: String, times: [Double] = []) -> Row {
            Row(path: markRowName(mark), name: markRowName(mark), depth: 0, kind: nil, afterLaunch: false, durations: times, isMark: true)
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
    /// Each run's system counters for the whole launch, in the runs that have them (``RunRecord/launchCounters``).
    public var totalCounters: [PhaseCounters] = []

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
        var index = PhasePathIndex()
        for run in result.runs {
            let rowOfPhase = index.rows(of: run.phases)
            for (phase, i) in zip(run.phases, rowOfPhase) {
                if i == rows.count {
                    rows.append(Row(path: index.paths[i], name: phase.name, depth: phase.depth, kind: phase.kind, afterLaunch: phase.afterLaunch))
                    rows[i].inBackground = phase.background == true
                    rows[i].onWorkerThread = phase.thread != 0
                }
                rows[i].durations.append(phase.duration)
                if let host = phase.hostDuration { rows[i].hostDurations.append(host) }
                if let rss = phase.residentBytes { rows[i].residentBytes.append(rss) }
                if let growth = phase.residentGrowth { rows[i].residentGrowth.append(growth) }
                if let count = phase.instructions { rows[i].instructions.append(Double(count)) }
                if let counters = phase.counters { rows[i].addCounters(counters, duration: phase.duration) }
            }
        }
        totalCounters = result.runs.compactMap(\.launchCounters)
        self.rows =
            rows + Self.markRows(result.runs.map { $0.marks.map { ($0.name, $0.time) } })
            + Self.tapLatencyRow(result.runs.compactMap { $0.taps?.latencies })
            + Self.processRows(result.runs.compactMap(\.process))
        totals = result.runs.map(\.total)
        // Host total: the emulated total less the waiting inside the top-level launch phases.
        hostTotals = result.runs.map { run in
            // The main thread's waits only: a worker's overlap them.
            run.total
                - run.phases.filter { $0.depth == 0 && !$0.afterLaunch && $0.thread == 0 }
                .reduce(0) { sum, phase in sum + (phase.hostDuration.map { phase.duration - $0 } ?? 0) }
        }
        instructionTotals = result.runs.compactMap { $0.instructions.map(Double.init) }
        deferred = result.runs.first?.deferred ?? []
        runCount = result.runs.count
    }

    /// The row name of mark `mark`: `Time to first frame`. Marks are compared, budgeted and exported
    /// under this name, after the phases.
    public static func markRowName(_ mark: String) -> String { "Time to \(mark)" }

    /// The row of tap latencies (`--tap`): each run's median seconds from a tap to the frame that
    /// showed it, compared, budgeted and gated like a mark.
    public static let tapLatencyRowName = "Tap latency"

    /// The tap-latency row for runs' latencies (each run's median; runs without applied taps are left out).
    public static func tapLatencyRow(_ runs: [[Double]]) -> [Row] {
        let medians = runs.compactMap { Summary($0)?.median }
        guard !medians.isEmpty else { return [] }
        return [Row(path: tapLatencyRowName, name: tapLatencyRowName, depth: 0, kind: nil, afterLaunch: false, durations: medians, isMark: true)]
    }

    /// The rows of a program's CPU time (`launchprof exec`): user and system seconds per run, compared,
    /// budgeted and gated like a mark, and reported as a measured, non-failing column where time is.
    public static let userCPURowName = "User CPU time"
    public static let systemCPURowName = "System CPU time"

    /// The CPU-time rows for runs' process records (none when no run has one).
    public static func processRows(_ runs: [ProcessRecord]) -> [Row] {
        guard !runs.isEmpty else { return [] }
        return [
            Row(path: userCPURowName, name: userCPURowName, depth: 0, kind: nil, afterLaunch: false, durations: runs.map(\.user), isMark: true),
            Row(path: systemCPURowName, name: systemCPURowName, depth: 0, kind: nil, afterLaunch: false, durations: runs.map(\.system), isMark: true)
        ]
    }

    /// The phase rows (marks excluded).
    public var phaseRows: [Row] { rows.filter { !$0.isMark } }

    /// The mark rows, in the order the marks first came.
    public var markRows: [Row] { rows.filter(\.isMark) }

    /// Mark rows for runs' marks (`[name, time]` per run; a mark that came more than once in a run
    /// counts at its first time), in the order the marks first came.
    public static func markRows(_ runs: [[(name: String, time: Double)]]) -> [Row] {
        var rows: [Row] = []
        var index: [String: Int] = [:]
        for marks in runs {
            var seen: Set<String> = []
            for mark in marks where seen.insert(mark.name).inserted {
                if let i = index[mark.name] {
                    rows[i].durations.append(mark.time)
                } else {
                    index[mark.name] = rows.count
                    rows.append(.mark(mark.name, times: [mark.time]))
                }
            }
        }
        return rows
    }

    /// The launch totals of `metric`, one per run.
    public func totals(_ metric: Metric) -> [Double] {
        switch metric {
        case .time: totals
        case .instructions: instructionTotals
        }
    }
}

/// Everything recorded in one launch: its phases, marks, counters and total.
public struct RunRecord: Codable, Equatable, Sendable {
    /// 1-based run number within the result.
    public var index: Int
    /// The process id of the launch, when known.
    public var pid: Int?
    /// Seconds from the clock origin (top of `main`) to the end of the last phase that ran at launch.
    public var total: Double
    /// Every phase, in the order they began (a parent always precedes its children).
    public var phases: [PhaseRecord]
    public var marks: [MarkRecord]
    public var counters: [CounterRecord]
    /// Names of lazy phases that did not run at launch.
    public var deferred: [String]
    /// The process's peak resident-set size in bytes, when known.
    public var peakResidentBytes: Int?
    /// Instructions from exec to the end of the last phase that ran at launch (Callgrind's `Ir`),
    /// when the run was made with `--metric instructions`; `nil` otherwise.
    public var instructions: Int?
    /// The taps delivered during and after the launch (`--tap`), when there were any.
    public var taps: TapRecord?
    /// CPU time and exit of the process, for runs of `launchprof exec`; `nil` for the built-in app's.
    public var process: ProcessRecord?
    /// The core's clock, in GHz (0.05 to 20), that the run's emulated waits read and its phases were
    /// stretched at, on a device tier whose calibration holds at a clock (the app's `x-clock` line,
    /// ``ClockTries``); `nil` elsewhere, and in results made before it was recorded.
    public var clockGigahertz: Double?
    /// The run's function profile by phase (`--functions`): in memory only, never written (a result
    /// keeps one run's, summarized: ``LaunchResult/functions``).
    public var functionProfile: RunFunctionProfile? = nil
    /// For a cold launch (`--cold`): the evicted files found back in the page cache after the run,
    /// with the bytes of each: what the launch read from storage (``PageCache/residentBytes(of:)``).
    /// In memory only, never written: `Why it is slow` names them (docs/why-slow.md, `coldFaults`).
    public var coldReads: [FileRead]? = nil
    /// The `CLOCK_MONOTONIC` reading (nanoseconds) just before the spawn, the origin of the run's
    /// times: in memory only, never written (`--sample` places perf's samples on the phases with it).
    public var spawnReading: UInt64? = nil

    private enum CodingKeys: String, CodingKey {
        case index, pid, total, phases, marks, counters, deferred, peakResidentBytes, instructions, taps, process, clockGigahertz
    }

    public init(
        index: Int = 1, pid: Int? = nil, total: Double, phases: [PhaseRecord],
        marks: [MarkRecord] = [], counters: [CounterRecord] = [], deferred: [String] = []
    ) {
        self.index = index
        self.pid = pid
        self.total = total
        self.phases = phases
        self.marks = marks
        self.counters = counters
        self.deferred = deferred
    }

    /// Collects a run from the recorders of every thread that took part.
    ///
    /// The total is the end of the last phase that ran at launch, measured from the clock origin;
    /// with no phases it is the time of the call.
    public init(index: Int = 1, pid: Int? = nil, clock: LaunchClock, recorders: [PhaseRecorder], deferred: [String] = []) {
        var phases: [PhaseRecord] = []
        var marks: [MarkRecord] = []
        var counters: [CounterRecord] = []
        for recorder in recorders {
            phases += recorder.phaseRecords(indexOffset: phases.count)
            marks += recorder.markRecords()
            for counter in recorder.counterRecords() {
                if let i = counters.firstIndex(where: { $0.name == counter.name }) {
                    counters[i].value += counter.value
                } else {
                    counters.append(counter)
                }
            }
        }
        let launchEnd = phases.filter { !$0.afterLaunch }.map(\.end).max() ?? clock.elapsedSeconds()
        self.init(
            index: index, pid: pid, total: launchEnd, phases: phases, marks: marks,
            counters: counters, deferred: deferred)
    }

    /// The value of counter `name`, or `nil` when it was never counted.
    public func counter(_ name: String) -> Int? {
        counters.first { $0.name == name }?.value
    }
}

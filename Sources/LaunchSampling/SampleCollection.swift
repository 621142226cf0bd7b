import LaunchCore

/// One sample placed on its run: when, on which of the run's threads, in which phase, and its
/// frames (indices into ``SampleCollection/frames``, leaf first).
public struct PlacedSample: Equatable, Sendable {
    /// The run's position in the records given to ``SampleCollection``.
    public var run: Int
    /// Seconds from the run's spawn (the phases' origin).
    public var seconds: Double
    /// The protocol thread (0 the main thread) of the launched process; -1 for a thread no phase
    /// was reported on, or another process of the run.
    public var thread: Int
    /// The phase's index in the run's ``RunRecord/phases``: the innermost phase of the thread open
    /// at the sample's time; `nil` outside every phase.
    public var phase: Int?
    /// Whether the sample hit the launched process (not a process it started).
    public var inLaunchedProcess: Bool
    /// Leaf first, indices into ``SampleCollection/frames``.
    public var frames: [Int32]
}

/// Sorts a session's samples into its runs, threads and phases.
///
/// A sample belongs to run r when it hit a process other than launchprof itself at a time between
/// run r's spawn and the next run's. In the launched process, the main thread (tid = pid) is the
/// protocol's thread 0; any other thread is the protocol thread (1 or more) whose phases contain
/// most of its samples (the protocol numbers threads, it does not name the kernel's). A sample is
/// in the innermost phase of its thread whose span holds its time.
public struct SampleCollection {
    /// The most samples of the runs kept: past it the session fails (a lower `--sample-rate` fits).
    public static let maximumSamples = 1_000_000

    public let records: [RunRecord]
    /// Every distinct frame, in the order first seen.
    public private(set) var frames: [PerfFrame] = []
    private var frameIndex: [PerfFrame: Int32] = [:]
    /// Raw samples by run: (pid, tid, nanoseconds, frames).
    private var raw: [[(pid: Int, tid: Int, nanoseconds: UInt64, frames: [Int32])]]
    private let selfPid: Int
    /// Runs by spawn reading: (reading, run position).
    private let windows: [(reading: UInt64, run: Int)]
    /// Samples kept.
    public private(set) var count = 0
    /// Set when more than ``maximumSamples`` were offered.
    public private(set) var overflowed = false

    public init(records: [RunRecord], selfPid: Int) {
        self.records = records
        self.selfPid = selfPid
        raw = Array(repeating: [], count: records.count)
        windows = records.enumerated().compactMap { i, record in record.spawnReading.map { ($0, i) } }.sorted { $0.reading < $1.reading }
    }

    /// Adds one of perf's samples (launchprof's own and those before the first run are dropped).
    public mutating func add(_ sample: PerfSample) {
        guard sample.pid != selfPid, sample.pid > 0, let run = run(at: sample.nanoseconds) else { return }
        guard count < Self.maximumSamples else {
            overflowed = true
            return
        }
        count += 1
        var frames: [Int32] = []
        frames.reserveCapacity(sample.frames.count)
        for frame in sample.frames { frames.append(intern(frame)) }
        raw[run].append((sample.pid, sample.tid, sample.nanoseconds, frames))
    }

    /// The run whose window holds `reading`: the last spawn at or before it.
    private func run(at reading: UInt64) -> Int? {
        var low = 0, high = windows.count
        while low < high {
            let middle = (low + high) / 2
            if windows[middle].reading <= reading { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : windows[low - 1].run
    }

    private mutating func intern(_ frame: PerfFrame) -> Int32 {
        if let known = frameIndex[frame] { return known }
        let index = Int32(frames.count)
        frames.append(frame)
        frameIndex[frame] = index
        return index
    }

    /// Every run's samples placed on threads and phases, by run position, in time order.
    public func placed() -> [[PlacedSample]] {
        records.indices.map { place(run: $0) }
    }

    private func place(run: Int) -> [PlacedSample] {
        let record = records[run]
        guard let origin = record.spawnReading else { return [] }
        let samples = raw[run].sorted { $0.nanoseconds < $1.nanoseconds }
        let seconds = { (reading: UInt64) in LaunchClock(originNanoseconds: origin).seconds(atReading: reading) }
        let threads = threadsOfWorkers(samples.filter { $0.pid == record.pid && $0.tid != $0.pid }.map { ($0.tid, seconds($0.nanoseconds)) }, record)
        return samples.map { sample in
            let time = seconds(sample.nanoseconds)
            let launched = sample.pid == record.pid
            let thread = !launched ? -1 : sample.tid == sample.pid ? 0 : threads[sample.tid] ?? -1
            return PlacedSample(
                run: run, seconds: time, thread: thread, phase: thread >= 0 ? Self.innermostPhase(record, thread: thread, at: time) : nil,
                inLaunchedProcess: launched, frames: sample.frames)
        }
    }

    /// Each worker thread's protocol thread: the one (1 or more) whose phases hold most of its samples.
    private func threadsOfWorkers(_ samples: [(tid: Int, seconds: Double)], _ record: RunRecord) -> [Int: Int] {
        let protocolThreads = Set(record.phases.map(\.thread)).subtracting([0]).sorted()
        var votes: [Int: [Int: Int]] = [:]
        for sample in samples {
            for thread in protocolThreads where Self.innermostPhase(record, thread: thread, at: sample.seconds) != nil {
                votes[sample.tid, default: [:]][thread, default: 0] += 1
            }
        }
        return votes.compactMapValues { counts in counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key }
    }

    /// The innermost phase of `thread` whose span holds `seconds` (the latest-starting one).
    static func innermostPhase(_ record: RunRecord, thread: Int, at seconds: Double) -> Int? {
        var found: Int?
        for (i, phase) in record.phases.enumerated() where phase.thread == thread && phase.start <= seconds && seconds < phase.end {
            if let known = found, record.phases[known].start > phase.start || record.phases[known].depth > phase.depth { continue }
            found = i
        }
        return found
    }
}

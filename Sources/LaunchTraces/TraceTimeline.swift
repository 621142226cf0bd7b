import LaunchCore

/// The phases and marks a reader found, on the trace's own clock (seconds), before they are placed
/// in the run: the part every reader shares. It enforces the phase, depth and mark limits as they
/// are added, and ``placed(clock:candidates:allowEarliestAtSpawn:)`` turns them into the run's
/// records, within the run and each child within its parent.
struct TraceTimeline {
    struct Phase {
        var name: String
        /// The reader's thread number (see ``renumberThreads(first:)``).
        var thread: Int
        var start: Double
        /// `.infinity` while open: a phase never closed ends with the run.
        var end: Double
        var parent: Int?
        var depth: Int
        /// Where it came from (a line or an event number), for messages.
        var origin: Int
    }

    /// A limit the trace went past, in words (the reader adds the place).
    struct Refusal: Error, Equatable {
        var reason: String
    }

    private(set) var phases: [Phase] = []
    /// Marks on the trace's own clock (``MarkRecord/time``), until ``placed(clock:candidates:allowEarliestAtSpawn:)``.
    private(set) var marks: [MarkRecord] = []
    /// The earliest and latest times of the trace's other events (no phase or mark of their own):
    /// they count when the times are placed in the run.
    private var earliestOther = Double.infinity, latestOther = -Double.infinity

    /// Adds a phase inside `parent` (an earlier phase, on the same thread) and returns its index.
    mutating func add(_ name: String, thread: Int, start: Double, end: Double = .infinity, parent: Int?, origin: Int) throws(Refusal) -> Int {
        guard phases.count < TraceLimits.phases else {
            throw Refusal(reason: "more than \(TraceLimits.phases) phases in one run (the limit)")
        }
        let depth = parent.map { phases[$0].depth + 1 } ?? 0
        guard depth < TraceLimits.depth else {
            throw Refusal(reason: "phases nested more than \(TraceLimits.depth) deep (the limit)")
        }
        phases.append(Phase(name: name, thread: thread, start: start, end: end, parent: parent, depth: depth, origin: origin))
        return phases.count - 1
    }

    /// Ends phase `index` at `time`.
    mutating func end(_ index: Int, at time: Double) {
        phases[index].end = time
    }

    /// Moves each thread in `adoptions` (a key) into the thread of a phase (its value): the thread's
    /// top-level phases become that phase's children. A thread with a phase that comes before its
    /// new parent stays as it is (parents must come first).
    mutating func adopt(_ adoptions: [Int: Int]) throws(Refusal) {
        var first: [Int: Int] = [:]
        for i in phases.indices where adoptions[phases[i].thread] != nil && first[phases[i].thread] == nil {
            first[phases[i].thread] = i
        }
        let valid = adoptions.filter { thread, parent in first[thread].map { $0 > parent } ?? false }
        for i in phases.indices {
            guard let parent = valid[phases[i].thread] else { continue }
            phases[i].thread = phases[parent].thread
            if phases[i].parent == nil { phases[i].parent = parent }
            phases[i].depth = phases[phases[i].parent!].depth + 1
            guard phases[i].depth < TraceLimits.depth else {
                throw Refusal(reason: "phases nested more than \(TraceLimits.depth) deep (the limit)")
            }
        }
    }

    /// Notes the time of an event that makes no phase or mark (a process start, a counter): it
    /// must fit in the run too, and may be the earliest event.
    mutating func include(_ time: Double) {
        earliestOther = min(earliestOther, time)
        latestOther = max(latestOther, time)
    }

    mutating func addMark(_ name: String, time: Double, thread: Int) throws(Refusal) {
        guard marks.count < TraceLimits.marks else {
            throw Refusal(reason: "more than \(TraceLimits.marks) marks in one run (the limit)")
        }
        marks.append(MarkRecord(name: name, time: time, thread: thread))
    }

    /// Numbers the threads 0, 1, 2… : `first` (the main thread of the first process) is 0, the
    /// others follow in the order their first phase or mark appears.
    mutating func renumberThreads(first: Int) {
        var numbers = [first: 0]
        for thread in phases.map(\.thread) + marks.map(\.thread) where numbers[thread] == nil {
            numbers[thread] = numbers.count
        }
        for i in phases.indices { phases[i].thread = numbers[phases[i].thread]! }
        for i in marks.indices { marks[i].thread = numbers[marks[i].thread]! }
    }

    /// The trace's times do not fit in the run: they span `span` seconds, more than the run's `duration`.
    struct Misfit: Error, Equatable {
        var span: Double
        var duration: Double

        /// `the events span 2.1 s, longer than the run (2.0 s)`, with `what` naming the events.
        func describe(_ what: String) -> String {
            "\(what) \(Self.seconds(span)) s, longer than the run (\(Self.seconds(duration)) s)"
        }

        /// Seconds to the µs.
        static func seconds(_ value: Double) -> String {
            String((value * 1e6).rounded() / 1e6)
        }
    }

    /// The phases and marks in seconds since the spawn.
    ///
    /// `candidates` are the clocks the trace's times may be on, each with the trace time of the
    /// spawn: the first under which every time falls within the run (give or take
    /// ``TraceLimits/clockToleranceSeconds``) is used. When none fits and `allowEarliestAtSpawn`,
    /// the earliest time is placed at the spawn, provided the times span no more than the run.
    /// Times are then clamped to the run (a phase still open ends with it), and each phase to its
    /// parent, so that the records nest exactly whatever the trace's rounding. Parents keep coming
    /// before their children.
    ///
    /// - Throws: ``Misfit`` when the times cannot be placed in the run.
    func placed(clock: SpawnClock, candidates: [(TraceAnchor, Double)], allowEarliestAtSpawn: Bool)
        throws(Misfit) -> (phases: [PhaseRecord], marks: [MarkRecord], anchor: TraceAnchor)
    {
        let duration = clock.duration
        var low = earliestOther, high = latestOther
        for phase in phases {
            low = min(low, phase.start)
            high = max(high, phase.start)
            if phase.end.isFinite { high = max(high, phase.end) }
        }
        for mark in marks {
            low = min(low, mark.time)
            high = max(high, mark.time)
        }
        var origin = 0.0
        var anchor = candidates.first?.0 ?? .earliestEventAtSpawn
        if low <= high {
            let tolerance = TraceLimits.clockToleranceSeconds
            if let fit = candidates.first(where: { low - $0.1 >= -tolerance && high - $0.1 <= duration + tolerance }) {
                (anchor, origin) = fit
            } else if allowEarliestAtSpawn, high - low <= duration + tolerance {
                (anchor, origin) = (.earliestEventAtSpawn, low)
            } else {
                let from = candidates.first.map { min(low, $0.1) } ?? low
                throw Misfit(span: allowEarliestAtSpawn ? high - low : high - from, duration: duration)
            }
        }
        func place(_ time: Double) -> Double { min(max(time - origin, 0), duration) }
        var records: [PhaseRecord] = []
        records.reserveCapacity(phases.count)
        for phase in phases {
            var start = place(phase.start), end = max(start, place(phase.end))
            if let parent = phase.parent {
                let outer = records[parent]
                start = min(max(start, outer.start), outer.end)
                end = min(max(end, start), outer.end)
            }
            records.append(
                PhaseRecord(
                    name: phase.name, start: start, duration: end - start,
                    thread: phase.thread, depth: phase.depth, parent: phase.parent))
        }
        // In start order (parents first among equal starts), as the protocol lists phases.
        let order = records.indices.sorted { (records[$0].start, records[$0].depth, $0) < (records[$1].start, records[$1].depth, $1) }
        var position = [Int](repeating: 0, count: records.count)
        for (new, old) in order.enumerated() { position[old] = new }
        let sorted = order.map { old in
            var record = records[old]
            record.parent = record.parent.map { position[$0] }
            return record
        }
        let placedMarks = marks.map { MarkRecord(name: $0.name, time: place($0.time), thread: $0.thread) }
        return (sorted, placedMarks, anchor)
    }
}

/// The events of a Chrome trace as ``ChromeTraceReader`` collects them, per thread key (`pid`, NUL,
/// `tid`): complete events as intervals, begin and end events as edges, and marks.
struct ChromeTraceEvents {
    typealias Event = ChromeTraceReader.Event

    /// Per thread key: X intervals (and, once paired, B/E ones), B/E edges; marks.
    var intervals: [String: [ChromeTraceReader.Interval]] = [:]
    var edges: [String: [ChromeTraceReader.Edge]] = [:]
    var marks: [(name: String, ts: Double, thread: String)] = []
    /// Each thread's ids, and its earliest time (and event number).
    var threadIDs: [String: (pid: String, tid: String)] = [:]
    var earliest: [String: (ts: Double, event: Int)] = [:]
    var phaseEvents = 0, endEvents = 0
    /// The earliest and latest times of events that make no phase.
    var otherTimes = (Double.infinity, -Double.infinity)
    /// The first event's `ts`: times are kept relative to it.
    var firstTs: Double?
    /// Events read so far (the number of the last, from 1).
    var count = 0

    /// A refusal of one event, worded for its position.
    struct Refusal: Error {
        var reason: String
    }

    /// Adds event `event` (`ph`, fields `e`) that starts at `offset`.
    mutating func add(_ ph: String, _ e: Event, event: Int, offset: Int) throws(Refusal) {
        if let ts = e.ts {
            guard abs(ts) <= TraceLimits.chromeMicroseconds else { throw Refusal(reason: "'ts' \(ts) is out of range (at most ±10¹⁸ µs)") }
            if firstTs == nil { firstTs = ts }
        }
        guard ChromeTraceReader.usedPhases.contains(ph) else {
            // Other events (counters, async, samples) count only for where the run starts.
            if let ts = e.ts { otherTimes = (min(otherTimes.0, ts), max(otherTimes.1, ts)) }
            return
        }
        guard let ts = e.ts else { throw Refusal(reason: "a '\(ph)' event without 'ts'") }
        if ph == "E" {
            endEvents += 1
            guard endEvents <= TraceLimits.phases else {
                throw Refusal(reason: "more than \(TraceLimits.phases) 'E' events: more than the phases one run may have, so some end nothing")
            }
            edges[e.thread, default: []].append(
                ChromeTraceReader.Edge(begins: false, name: "", ts: ts, event: event, offset: offset, pid: e.pid, tid: e.tid))
            return
        }
        guard let name = e.name, !name.isEmpty else { throw Refusal(reason: "a '\(ph)' event without a name") }
        if threadIDs[e.thread] == nil { threadIDs[e.thread] = (e.pid, e.tid) }
        if earliest[e.thread].map({ ts < $0.ts }) ?? true { earliest[e.thread] = (ts, event) }
        if ph == "i" || ph == "I" || ph == "R" {
            guard marks.count < TraceLimits.marks else { throw Refusal(reason: "more than \(TraceLimits.marks) marks in one run (the limit)") }
            marks.append((name, ts, e.thread))
            return
        }
        try addPhase(ph, name: name, ts: ts, e, event: event, offset: offset)
    }

    /// An `X` (an interval) or a `B` (an edge) named `name`.
    private mutating func addPhase(_ ph: String, name: String, ts: Double, _ e: Event, event: Int, offset: Int) throws(Refusal) {
        guard phaseEvents < TraceLimits.phases else {
            throw Refusal(reason: "more than \(TraceLimits.phases) phases in one run (the limit)")
        }
        phaseEvents += 1
        if ph == "X" {
            guard let dur = e.dur else { throw Refusal(reason: "an 'X' event without 'dur'") }
            guard dur >= 0, dur <= TraceLimits.chromeMicroseconds else {
                throw Refusal(reason: "'dur' \(dur) is out of range (0 to 10¹⁸ µs)")
            }
            intervals[e.thread, default: []].append(
                ChromeTraceReader.Interval(name: name, start: ts, end: ts + dur, event: event, offset: offset))
        } else {
            edges[e.thread, default: []].append(
                ChromeTraceReader.Edge(begins: true, name: name, ts: ts, event: event, offset: offset, pid: e.pid, tid: e.tid))
        }
    }

    /// The threads in the order they are numbered, and each one's number.
    struct Threads {
        var order: [String]
        var numbers: [String: Int]
    }

    /// The main thread (`tid` equal to `pid`, in the process of the earliest event) first, then by earliest event.
    func threadOrder() -> Threads {
        let ordered = earliest.sorted { ($0.value.ts, $0.value.event) < ($1.value.ts, $1.value.event) }.map(\.key)
        let isMain = { (key: String) in threadIDs[key].map { $0.pid == $0.tid } ?? false }
        let firstPid = ordered.first.flatMap { threadIDs[$0]?.pid }
        let main = ordered.first { isMain($0) && threadIDs[$0]?.pid == firstPid } ?? ordered.first(where: isMain) ?? ordered.first
        let threads = (main.map { [$0] } ?? []) + ordered.filter { $0 != main }
        var numbers: [String: Int] = [:]
        for (number, key) in threads.enumerated() { numbers[key] = number }
        return Threads(order: threads, numbers: numbers)
    }
}

/// The trace file being read, for errors that name it, the line and column, and the event.
struct ChromeTraceSource {
    let bytes: [UInt8]
    let file: String

    func error(_ reason: String, at offset: Int, event: Int? = nil) -> TraceError {
        let (line, column) = TraceJSON.position(of: offset, in: bytes)
        return TraceError.malformed(source: file, line: line, column: column, event: event, reason: reason)
    }
}

/// Reads a Chrome trace (the Trace Event Format: a JSON object with `traceEvents`, or a bare array
/// of events) that a program wrote, and turns it into nested phases and marks (docs/traces.md).
///
/// - Complete events (`ph` `X`: `ts` and `dur`) and begin/end pairs (`B`, then `E` on the same
///   `pid` and `tid`, matched in time order as a stack) become phases named by their `name`, nested
///   on each thread by containment. Events on one thread must nest; overlaps of up to 1 µs (rounding)
///   are trimmed. A `B` never ended lasts until its enclosing phase ends, or the run does.
/// - Instant events (`i`, `I`) and marks (`R`) become marks, so a program can report `first frame`
///   and `interactive`.
/// - Every other event (metadata `M`, counters, async, flow, samples…) is ignored.
/// - Threads: the main thread (`tid` equal to `pid`) of the process with the earliest event is
///   thread 0 (or the thread with the earliest event, when no `tid` equals its `pid`); the others
///   follow in the order of their earliest event.
/// - Times (`ts`, µs): taken as `CLOCK_MONOTONIC` when they all fall within the run on it, else as
///   the wall clock (µs since 1970) when they do on that, else the earliest is placed at the spawn.
/// - The final `]` of a bare array may be missing (the format allows it, for programs that stop
///   writing early).
public enum ChromeTraceReader {
    /// An event that makes a phase or a mark, as read.
    struct Event {
        var name: String?
        var ts: Double?
        var dur: Double?
        var thread = ""
        var pid = ""
        var tid = ""
    }

    /// A phase on one thread, in µs.
    struct Interval {
        var name: String
        var start: Double
        var end: Double
        var event: Int
        var offset: Int
    }

    /// A `B` or `E` event, in µs.
    struct Edge {
        var begins: Bool
        var name: String
        var ts: Double
        var event: Int
        var offset: Int
        var pid: String
        var tid: String
    }

    /// The event types read (`ph`): complete, begin, end, instant (two spellings) and mark.
    static let usedPhases: Set<String> = ["X", "B", "E", "i", "I", "R"]

    /// Overlaps this small (µs) between phases of one thread are rounding, and trimmed.
    static let overlapToleranceMicroseconds = 1.0

    /// The phases and marks in the Chrome trace `bytes`, read from `file` (named in errors).
    ///
    /// - Throws: ``TraceError/malformed(source:line:column:event:reason:)`` naming `file`, the line and column, and the event's number (from
    ///   1): invalid JSON, an event that is not an object, an `X`, `B`, `i` or `R` event without a
    ///   name or `ts`, an `X` without a `dur` or with a negative one, a time that is not a finite
    ///   number of µs within ±10¹⁸, an `E` with no `B` open on its thread, events of one thread that
    ///   overlap without nesting, times that span more than the run, or a limit (docs/limits.md).
    public static func read(_ bytes: [UInt8], file: String, clock: SpawnClock) throws(TraceError) -> TraceReading {
        let source = ChromeTraceSource(bytes: bytes, file: file)
        var events = try collect(source)
        try pairBeginsWithEnds(&events, source)
        let threads = events.threadOrder()
        var timeline = TraceTimeline()
        try nest(events, threads: threads, into: &timeline, source)
        let base = events.firstTs ?? 0
        if events.otherTimes.0 <= events.otherTimes.1 {
            timeline.include((events.otherTimes.0 - base) / 1e6)
            timeline.include((events.otherTimes.1 - base) / 1e6)
        }
        for mark in events.marks {
            do {
                try timeline.addMark(mark.name, time: (mark.ts - base) / 1e6, thread: threads.numbers[mark.thread]!)
            } catch {
                throw .malformed(source: file, reason: error.reason)
            }
        }
        return try place(timeline, base: base, clock: clock, file: file)
    }

    /// Every event of the trace, collected per thread (docs/traces.md); nothing is nested yet.
    private static func collect(_ source: ChromeTraceSource) throws(TraceError) -> ChromeTraceEvents {
        var json = TraceJSON(source.bytes)
        var events = ChromeTraceEvents()
        do {
            let bare = try openEventArray(&json)
            while try json.nextElement(endOfInputCloses: bare) {
                events.count += 1
                let event = events.count
                let offset = json.offset
                guard try json.nextKind() == .object else {
                    throw source.error("an event must be a JSON object", at: offset, event: event)
                }
                let (ph, e): (String, Event)
                do {
                    (ph, e) = try parseEvent(&json)
                } catch {
                    throw source.error(error.reason, at: error.offset, event: event)
                }
                do {
                    try events.add(ph, e, event: event, offset: offset)
                } catch {
                    throw source.error(error.reason, at: offset, event: event)
                }
            }
            if !bare {
                while try json.nextKey() != nil { try json.skipValue() }
            }
            try json.expectEnd()
        } catch let failure as TraceJSON.Failure {
            throw source.error(failure.reason, at: failure.offset)
        } catch let error as TraceError {
            throw error
        } catch {
            throw .malformed(source: source.file, reason: "\(error)")
        }
        return events
    }

    /// Opens the array of events: the document itself (a bare array: `true`), or its `traceEvents`.
    private static func openEventArray(_ json: inout TraceJSON) throws(TraceJSON.Failure) -> Bool {
        let bare: Bool
        switch json.peek() {
        case UInt8(ascii: "["):
            bare = true
        case UInt8(ascii: "{"):
            bare = false
            try json.openObject()
            var found = false
            while let key = try json.nextKey() {
                if key == "traceEvents", !found, try json.nextKind() == .array {
                    found = true
                    break
                }
                try json.skipValue()
            }
            guard found else {
                throw TraceJSON.Failure(offset: 0, reason: "no 'traceEvents' array: a Chrome trace is an object with 'traceEvents', or an array of events")
            }
        default:
            throw json.failure("a Chrome trace is an object with 'traceEvents', or an array of events")
        }
        try json.openArray()
        return bare
    }

    /// B/E pairs, per thread, matched in time order (file order for equal times) into intervals;
    /// the threads in the order of their first B or E, so that the first unbalanced one is reported.
    private static func pairBeginsWithEnds(_ events: inout ChromeTraceEvents, _ source: ChromeTraceSource) throws(TraceError) {
        for (thread, list) in events.edges.sorted(by: { $0.value[0].event < $1.value[0].event }) {
            let sorted = list.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }.map(\.element)
            var open: [Edge] = []
            for edge in sorted {
                if edge.begins {
                    open.append(edge)
                    continue
                }
                guard let begin = open.popLast() else {
                    throw source.error(
                        "an 'E' event with no 'B' event open on its thread (pid \(shown(edge.pid)), tid \(shown(edge.tid))) at that time",
                        at: edge.offset, event: edge.event)
                }
                events.intervals[thread, default: []].append(
                    Interval(name: begin.name, start: begin.ts, end: edge.ts, event: begin.event, offset: begin.offset))
            }
            for begin in open {
                events.intervals[thread, default: []].append(
                    Interval(name: begin.name, start: begin.ts, end: .infinity, event: begin.event, offset: begin.offset))
            }
        }
    }

    /// Nesting by containment, per thread: longer first among equal starts, then file order.
    private static func nest(
        _ events: ChromeTraceEvents, threads: ChromeTraceEvents.Threads, into timeline: inout TraceTimeline, _ source: ChromeTraceSource
    ) throws(TraceError) {
        let base = events.firstTs ?? 0
        for key in threads.order {
            guard var list = events.intervals[key] else { continue }
            list.sort { ($0.start, -$0.end, $0.event) < ($1.start, -$1.end, $1.event) }
            var stack: [(index: Int, interval: Interval)] = []
            for var interval in list {
                while let top = stack.last, top.interval.end <= interval.start { stack.removeLast() }
                // Inside its parent, a phase never ended ends with it; one that ends later must be rounding.
                if let top = stack.last, interval.end > top.interval.end {
                    guard !interval.end.isFinite || interval.end - top.interval.end <= overlapToleranceMicroseconds else {
                        throw source.error(
                            "'\(TraceError.clip(interval.name))' overlaps '\(TraceError.clip(top.interval.name))' (event \(top.interval.event)) on its thread without nesting in it: events of one thread must nest",
                            at: interval.offset, event: interval.event)
                    }
                    interval.end = top.interval.end
                }
                do {
                    let index = try timeline.add(
                        interval.name, thread: threads.numbers[key]!, start: (interval.start - base) / 1e6,
                        end: (interval.end - base) / 1e6, parent: stack.last?.index, origin: interval.event)
                    stack.append((index, interval))
                } catch {
                    throw source.error(error.reason, at: interval.offset, event: interval.event)
                }
            }
        }
    }

    /// The timeline placed in the run: its times (µs from the first event's `base`) taken as
    /// `CLOCK_MONOTONIC`, the wall clock, or the earliest at the spawn.
    private static func place(_ timeline: TraceTimeline, base: Double, clock: SpawnClock, file: String) throws(TraceError) -> TraceReading {
        do {
            // Times are taken from the first event's (µs), so that seconds keep their sub-µs digits.
            let candidates: [(TraceAnchor, Double)] = [
                (.monotonicClock, (Double(clock.monotonicNanoseconds) / 1e3 - base) / 1e6),
                (.wallClock, (clock.realtimeSeconds * 1e6 - base) / 1e6)
            ]
            let placed = try timeline.placed(clock: clock, candidates: candidates.filter { $0.1.isFinite }, allowEarliestAtSpawn: true)
            return TraceReading(phases: placed.phases, marks: placed.marks, stderr: [], anchor: placed.anchor)
        } catch {
            throw .malformed(
                source: file,
                reason: error.describe("the events span") + ": the file holds events of another run, or its times are not in microseconds (the format's unit)")
        }
    }

    /// One event's `ph` and the fields used; the rest is skipped.
    private static func parseEvent(_ json: inout TraceJSON) throws(TraceJSON.Failure) -> (String, Event) {
        try json.openObject()
        var ph = ""
        var e = Event()
        while let key = try json.nextKey() {
            let at = json.offset
            switch key {
            case "ph": ph = try json.readString()
            case "name": e.name = try json.readString()
            case "ts", "dur":
                guard try json.nextKind() == .number else { throw json.failure("'\(key)' must be a number of microseconds") }
                let value = try json.readNumber()
                if key == "ts" { e.ts = value } else { e.dur = value }
            case "pid", "tid":
                let id: String
                switch try json.nextKind() {
                case .number:
                    let value = try json.readNumber()
                    guard value == value.rounded(), abs(value) <= 9e15 else {
                        throw TraceJSON.Failure(offset: at, reason: "'\(key)' must be a whole number or a string")
                    }
                    id = String(Int64(value))
                case .string:
                    id = "\"" + (try json.readString())
                default:
                    throw TraceJSON.Failure(offset: at, reason: "'\(key)' must be a whole number or a string")
                }
                if key == "pid" { e.pid = id } else { e.tid = id }
            default: try json.skipValue()
            }
        }
        e.thread = e.pid + "\u{0}" + e.tid
        return (ph, e)
    }

    /// A pid or tid as read (a string id is kept with a leading `"`), for messages.
    static func shown(_ id: String) -> String {
        id.isEmpty ? "none" : id.hasPrefix("\"") ? id + "\"" : id
    }
}

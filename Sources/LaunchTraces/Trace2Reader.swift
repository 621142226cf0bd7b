/// Reads git's Trace2 event target (`GIT_TRACE2_EVENT=<file>`: one JSON object per line, see git's
/// Documentation/technical/api-trace2) and turns it into nested phases (docs/traces.md).
///
/// - `region_enter`/`region_leave` pairs become phases named `<label> (<category>)`, nested per
///   thread of each git process as git nests them (`nesting`). Threads are numbered in the order
///   they first have a phase; the first process's `main` thread is thread 0.
/// - `child_start`/`child_exit` (a process git started: a hook, a pager, a helper, another git)
///   become a phase `child: <argv>` on a thread of its own, from start to exit as the parent saw
///   them. When the child is a git process writing to the same file (its `sid` is the parent's,
///   `/`, its own, which ends with its pid), its main thread's regions nest inside that phase.
/// - Times are git's `time` field (the wall clock, UTC, in µs), placed in the run with the wall
///   clock read at the spawn (``SpawnClock/realtimeSeconds``).
/// - A region still open when its process's events end (the process died in it, or was stopped
///   when ready) is closed at that process's `exit`, `atexit` or `signal` event, else when its parent
///   saw it exit, else at the end of the run; so is a child that never exited.
public enum Trace2Reader {
    typealias Bytes = ArraySlice<UInt8>

    /// The events that begin, end or close phases; the others only count for placing the run.
    enum Kind {
        case regionEnter, regionLeave, childStart, childExit, processEnd, other

        init(_ name: Bytes) {
            switch String(decoding: name, as: UTF8.self) {
            case "region_enter": self = .regionEnter
            case "region_leave": self = .regionLeave
            case "child_start": self = .childStart
            case "child_exit": self = .childExit
            case "exit", "atexit", "signal": self = .processEnd
            default: self = .other
            }
        }
    }

    /// The fields of one line that the reader uses, as slices of the file (no copies).
    struct Event {
        var kind = Kind.other
        var name: Bytes = []
        var sid: Bytes?
        var thread: Bytes?
        var time: Bytes?
        var nesting: Int?
        var category: Bytes?
        var label: Bytes?
        var childID: Int?
        var pid: Int?
        var argv: String?
    }

    /// A thread of a process (by its number, in the order processes first appear).
    struct ThreadKey: Hashable {
        var process: Int
        var name: Bytes
    }

    /// A region open on a thread.
    struct OpenRegion {
        var phase: Int
        var nesting: Int
        var category: Bytes?
        var label: Bytes?
    }

    /// A child process, as its parent reported it.
    struct Child {
        var phase: Int
        var pid: Int?
        var exited: Bool
    }

    /// The longest child-process phase name: its command line is cut there.
    static let childNameCharacters = 120

    /// The phases in the Trace2 event file `bytes`, read from `file` (named in errors).
    ///
    /// - Throws: ``TraceError/malformed(source:line:column:event:reason:)`` naming `file`, the line and column: a line that is not a JSON object
    ///   with a string `event`, a region or child event without the fields it needs (`sid`, `thread`,
    ///   `time`, `nesting`, `child_id`), a `time` that is not a UTC time, a `region_leave` with no
    ///   region open or not the one open, a region entered at a `nesting` that does not follow the
    ///   regions open, a `child_exit` of a child that never started, an end before its start, a file
    ///   with no events, times that do not fit in the run, or a limit (docs/limits.md).
    public static func read(_ bytes: [UInt8], file: String, clock: SpawnClock) throws(TraceError) -> TraceReading {
        var trace = Trace2Events()
        var lineNumber = 0
        var lineStart = 0
        while lineStart < bytes.count {
            lineNumber += 1
            let lineEnd = ByteSearch.first(0x0A, in: bytes, from: lineStart, to: bytes.count) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            var json = TraceJSON(bytes, from: lineStart, to: lineEnd)
            let line = lineNumber, start = lineStart
            func fail(_ reason: String, at offset: Int? = nil) -> TraceError {
                TraceError.malformed(source: file, line: line, column: (offset ?? start) - start + 1, reason: reason)
            }
            if json.peek() == nil { continue }  // A blank line.
            let e: Event
            do {
                e = try parse(&json)
            } catch {
                throw fail(error.reason, at: error.offset)
            }
            do {
                try trace.add(e, line: line)
            } catch {
                throw fail(error.reason)
            }
        }
        guard trace.events > 0 else {
            throw .malformed(source: file, reason: "no Trace2 events: the file is empty (did the program run git?)")
        }
        guard let base = trace.base, !trace.timeline.phases.isEmpty else {
            // Events, but none that makes a phase (`git --version`): no phases.
            return TraceReading(phases: [], marks: [], stderr: [], anchor: .wallClock)
        }
        do {
            try trace.finish()
        } catch {
            throw .malformed(source: file, reason: error.reason)
        }
        return try place(trace.timeline, base: base, clock: clock, file: file)
    }

    /// The timeline placed in the run with the wall clock read at the spawn.
    private static func place(_ timeline: TraceTimeline, base: Int64, clock: SpawnClock, file: String) throws(TraceError) -> TraceReading {
        do {
            // The spawn on the trace's clock, in whole µs from the first event: exact, where subtracting
            // seconds since 1970 as doubles would lose a tenth of a µs.
            let spawn = clock.realtimeSeconds * 1e6
            let candidates: [(TraceAnchor, Double)] =
                spawn.isFinite && abs(spawn) < 9e15
                ? [(.wallClock, Double(Int64(spawn.rounded()) - base) / 1e6)] : []
            let placed = try timeline.placed(clock: clock, candidates: candidates, allowEarliestAtSpawn: true)
            return TraceReading(phases: placed.phases, marks: [], stderr: [], anchor: placed.anchor)
        } catch {
            throw .malformed(source: file, reason: error.describe("the events span") + ": the file holds events of another run")
        }
    }

    /// The fields of one line: a JSON object with a string `event`.
    private static func parse(_ json: inout TraceJSON) throws(TraceJSON.Failure) -> Event {
        var e = Event()
        var sawEvent = false
        let start = json.offset
        guard json.peek() == UInt8(ascii: "{") else { throw json.failure("a Trace2 line must be a JSON object") }
        try json.openObject()
        while let key = try json.nextKey() {
            switch key {
            case "event":
                e.name = try json.readStringBytes()
                e.kind = Kind(e.name)
                sawEvent = true
            case "sid": e.sid = try json.readStringBytes()
            case "thread": e.thread = try json.readStringBytes()
            case "time": e.time = try json.readStringBytes()
            case "category": e.category = try json.readStringBytes()
            case "label": e.label = try json.readStringBytes()
            case "nesting": e.nesting = try json.readInteger("'nesting'", in: 1...1_000_000)
            case "child_id": e.childID = try json.readInteger("'child_id'", in: 0...Int(Int32.max))
            case "pid": e.pid = try json.readInteger("'pid'", in: Int(Int32.min)...Int(Int32.max))
            case "argv":
                try json.openArray()
                var words: [String] = []
                var length = 0
                while try json.nextElement() {
                    let word = try json.readString()
                    if length <= childNameCharacters { words.append(word) }
                    length += word.count + 1
                }
                let line = words.joined(separator: " ")
                e.argv = line.count > childNameCharacters ? String(line.prefix(childNameCharacters)) + "…" : line
            default: try json.skipValue()
            }
        }
        try json.expectEnd()
        guard sawEvent else { throw json.failure("a Trace2 line needs a string 'event'", at: start) }
        return e
    }

    /// `<label> (<category>)`, as the report names the region.
    static func regionName(_ label: Bytes?, _ category: Bytes?) -> String {
        switch (label.map(text), category.map(text)) {
        case let (label?, category?) where !label.isEmpty && !category.isEmpty: "\(label) (\(category))"
        case let (label?, _) where !label.isEmpty: label
        case let (_, category?) where !category.isEmpty: category
        default: "region"
        }
    }

    /// The pid at the end of a Trace2 session id (`20240501T120000.123456Z-H1a2b3c4d-P00004d2f`).
    static func pidOfSid(_ sid: Bytes) -> Int? {
        guard let p = sid.lastIndex(of: UInt8(ascii: "P")), p > sid.startIndex, sid[p - 1] == UInt8(ascii: "-") else { return nil }
        let hex = sid[(p + 1)...]
        guard !hex.isEmpty, hex.count <= 8 else { return nil }
        return Int(String(decoding: hex, as: UTF8.self), radix: 16)
    }

    static func text(_ bytes: Bytes) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

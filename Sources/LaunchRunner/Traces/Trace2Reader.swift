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
    /// The fields of one line that the reader uses.
    private struct Event {
        var event = ""
        var sid: String?
        var thread: String?
        var time: String?
        var nesting: Int?
        var category: String?
        var label: String?
        var childID: Int?
        var pid: Int?
        var argv: String?
    }

    /// A region open on a thread.
    private struct OpenRegion {
        var phase: Int
        var nesting: Int
        var category: String?
        var label: String?
    }

    /// A child process, as its parent reported it.
    private struct Child {
        var phase: Int
        var pid: Int?
        var exited: Bool
    }

    /// The events that begin, end or close phases; the others only count for placing the run.
    static let phaseEvents: Set<String> = ["region_enter", "region_leave", "child_start", "child_exit", "exit", "atexit", "signal"]

    /// The longest child-process phase name: its command line is cut there.
    static let childNameCharacters = 120

    /// The phases in the Trace2 event file `bytes`, read from `file` (named in errors).
    ///
    /// - Throws: ``TraceError`` naming `file`, the line and column: a line that is not a JSON object
    ///   with a string `event`, a region or child event without the fields it needs (`sid`, `thread`,
    ///   `time`, `nesting`, `child_id`), a `region_leave` with no region open or not the one open, a
    ///   region entered at a `nesting` that does not follow the regions open, a `child_exit` of a
    ///   child that never started, an end before its start, a file with no events, times that do not
    ///   fit in the run, or a limit (docs/limits.md).
    public static func read(_ bytes: [UInt8], file: String, clock: SpawnClock) throws(TraceError) -> TraceReading {
        var timeline = TraceTimeline()
        var threads: [String: Int] = [:]
        var stacks: [Int: [OpenRegion]] = [:]
        var children: [String: Child] = [:]
        /// The latest exit, atexit or signal time of each process.
        var processEnds: [String: Double] = [:]
        var firstSid: String?
        var base: Int64?
        var events = 0

        var lineNumber = 0
        var lineStart = 0
        while lineStart < bytes.count {
            lineNumber += 1
            let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            var json = TraceJSON(bytes, from: lineStart, to: lineEnd)
            let line = lineNumber, start = lineStart
            func fail(_ reason: String, at offset: Int? = nil) -> TraceError {
                TraceError(source: file, line: line, column: (offset ?? start) - start + 1, reason: reason)
            }
            if json.peek() == nil { continue }  // A blank line.
            let e: Event
            do {
                e = try parse(&json)
            } catch {
                throw fail(error.reason, at: error.offset)
            }
            events += 1
            // Every time must be valid; those of events without phases count when placing the run.
            var time: Double?
            if let timeText = e.time {
                guard let micros = UTCTimestamp.microseconds(timeText) else {
                    throw fail("'time' must be a UTC time such as 2024-05-01T12:00:00.123456Z, not '\(TraceError.clip(timeText))'")
                }
                if base == nil { base = micros }
                time = Double(micros - base!) / 1e6
            }
            if firstSid == nil, let sid = e.sid { firstSid = sid }
            guard Self.phaseEvents.contains(e.event) else {
                if let time { timeline.include(time) }
                continue
            }
            guard let sid = e.sid, let threadName = e.thread, let time else {
                throw fail("a \(e.event) event needs 'sid', 'thread' and 'time' (launchprof sets GIT_TRACE2_EVENT_BRIEF=false so that git writes them)")
            }
            let thread = identity("\(sid)\u{0}\(threadName)", in: &threads)
            func timelineFailure(_ refusal: TraceTimeline.Refusal) -> TraceError { fail(refusal.reason) }

            switch e.event {
            case "region_enter":
                guard let nesting = e.nesting else { throw fail("region_enter without 'nesting'") }
                let stack = stacks[thread] ?? []
                guard nesting == stack.count + 1 else {
                    throw fail("region_enter of \(regionName(e)) at nesting \(nesting), but \(stack.count) region\(stack.count == 1 ? " is" : "s are") open on thread \(threadName) of process \(sid) (expected nesting \(stack.count + 1))")
                }
                do {
                    let phase = try timeline.add(regionName(e), thread: thread, start: time, parent: stack.last?.phase, origin: line)
                    stacks[thread, default: []].append(OpenRegion(phase: phase, nesting: nesting, category: e.category, label: e.label))
                } catch {
                    throw timelineFailure(error)
                }
            case "region_leave":
                guard let nesting = e.nesting else { throw fail("region_leave without 'nesting'") }
                guard let open = stacks[thread]?.last else {
                    throw fail("region_leave of \(regionName(e)), but no region is open on thread \(threadName) of process \(sid)")
                }
                guard open.nesting == nesting, open.category == e.category, open.label == e.label else {
                    throw fail("region_leave of \(regionName(e)) at nesting \(nesting), but \(timeline.phases[open.phase].name) at nesting \(open.nesting) is the region open on thread \(threadName) of process \(sid)")
                }
                guard time >= timeline.phases[open.phase].start else {
                    throw fail("region_leave of \(regionName(e)) is earlier than its region_enter (did the wall clock go back?)")
                }
                timeline.end(open.phase, at: time)
                stacks[thread]!.removeLast()
            case "child_start":
                guard let id = e.childID else { throw fail("child_start without 'child_id'") }
                let key = "\(sid)\u{0}\(id)"
                guard children[key] == nil else { throw fail("child_start of child \(id) of process \(sid), which had started already") }
                let lifetime = identity("\(key)\u{0}child", in: &threads)
                do {
                    let phase = try timeline.add("child: " + (e.argv ?? "?"), thread: lifetime, start: time, parent: nil, origin: line)
                    children[key] = Child(phase: phase, pid: nil, exited: false)
                } catch {
                    throw timelineFailure(error)
                }
            case "child_exit":
                guard let id = e.childID else { throw fail("child_exit without 'child_id'") }
                let key = "\(sid)\u{0}\(id)"
                guard let child = children[key], !child.exited else {
                    throw fail("child_exit of child \(id) of process \(sid), which \(children[key] == nil ? "never started" : "had exited already")")
                }
                guard time >= timeline.phases[child.phase].start else {
                    throw fail("child_exit of child \(id) is earlier than its child_start (did the wall clock go back?)")
                }
                timeline.end(child.phase, at: time)
                children[key] = Child(phase: child.phase, pid: e.pid, exited: true)
            default:  // exit, atexit, signal
                processEnds[sid] = max(processEnds[sid] ?? -.infinity, time)
                timeline.include(time)
            }
        }
        guard events > 0 else {
            throw TraceError(source: file, reason: "no Trace2 events: the file is empty (did the program run git?)")
        }
        guard let firstSid, let base, !timeline.phases.isEmpty else {
            // Events, but none that makes a phase (`git --version`): no phases.
            return TraceReading(phases: [], marks: [], stderr: [], anchor: .wallClock)
        }

        // A child git process: `<parent sid>/<its own sid>`, which ends with `-P<pid in hex>`.
        var byPid: [String: Child] = [:]
        for (key, child) in children.sorted(by: { $0.value.phase < $1.value.phase }) {
            if let pid = child.pid, pid > 0 { let pidKey = "\(key.prefix { $0 != "\u{0}" })\u{0}\(pid)"
                if byPid[pidKey] == nil { byPid[pidKey] = child } }
        }
        var adoptions: [Int: Int] = [:]
        var childEnds: [String: Double] = [:]
        for sid in Set(threads.keys.map { String($0.prefix { $0 != "\u{0}" }) }) where sid.contains("/") {
            let parentSid = sid[..<sid.lastIndex(of: "/")!]
            guard let pid = pidOfSid(sid[sid.index(after: sid.lastIndex(of: "/")!)...]),
                  let child = byPid["\(parentSid)\u{0}\(pid)"] else { continue }
            if let main = threads["\(sid)\u{0}main"] { adoptions[main] = child.phase }
            childEnds[sid] = timeline.phases[child.phase].end
        }
        // Regions still open end with their process.
        for (key, thread) in threads {
            guard let stack = stacks[thread], !stack.isEmpty else { continue }
            let sid = String(key.prefix { $0 != "\u{0}" })
            let end = processEnds[sid] ?? childEnds[sid] ?? .infinity
            for region in stack { timeline.end(region.phase, at: max(end, timeline.phases[region.phase].start)) }
        }
        do {
            try timeline.adopt(adoptions)
        } catch {
            throw TraceError(source: file, reason: error.reason)
        }
        timeline.renumberThreads(first: threads["\(firstSid)\u{0}main"] ?? -1)
        do {
            // The spawn on the trace's clock, in whole µs from the first event: exact, where subtracting
            // seconds since 1970 as doubles would lose a tenth of a µs.
            let spawn = clock.realtimeSeconds * 1e6
            let candidates: [(TraceAnchor, Double)] = spawn.isFinite && abs(spawn) < 9e15
                ? [(.wallClock, Double(Int64(spawn.rounded()) - base) / 1e6)] : []
            let placed = try timeline.placed(clock: clock, candidates: candidates, allowEarliestAtSpawn: true)
            return TraceReading(phases: placed.phases, marks: [], stderr: [], anchor: placed.anchor)
        } catch {
            throw TraceError(source: file, reason: error.describe("the events span") + ": the file holds events of another run")
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
                e.event = try json.readString()
                sawEvent = true
            case "sid": e.sid = try json.readString()
            case "thread": e.thread = try json.readString()
            case "time": e.time = try json.readString()
            case "category": e.category = try json.readString()
            case "label": e.label = try json.readString()
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
    private static func regionName(_ e: Event) -> String {
        switch (e.label, e.category) {
        case let (label?, category?) where !label.isEmpty && !category.isEmpty: "\(label) (\(category))"
        case let (label?, _) where !label.isEmpty: label
        case let (_, category?) where !category.isEmpty: category
        default: "region"
        }
    }

    /// The pid at the end of a Trace2 session id (`20240501T120000.123456Z-H1a2b3c4d-P00004d2f`).
    static func pidOfSid(_ sid: Substring) -> Int? {
        guard let p = sid.lastIndex(of: "P"), p > sid.startIndex, sid[sid.index(before: p)] == "-" else { return nil }
        let hex = sid[sid.index(after: p)...]
        guard !hex.isEmpty, hex.count <= 8 else { return nil }
        return Int(hex, radix: 16)
    }

    private static func identity(_ key: String, in table: inout [String: Int]) -> Int {
        if let known = table[key] { return known }
        table[key] = table.count
        return table.count - 1
    }

}

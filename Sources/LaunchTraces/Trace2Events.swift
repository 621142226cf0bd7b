/// The state of a Trace2 file as ``Trace2Reader`` reads it, event by event: the processes and
/// threads seen, the regions open on each thread, the child processes, and the phases so far.
struct Trace2Events {
    typealias Bytes = Trace2Reader.Bytes
    typealias Event = Trace2Reader.Event
    typealias ThreadKey = Trace2Reader.ThreadKey

    var timeline = TraceTimeline()
    var processes: [Bytes: Int] = [:]
    var sids: [Bytes] = []
    /// Thread identities: a thread of a process, or a child process's lifetime (process -1).
    var threads: [ThreadKey: Int] = [:]
    var processOfThread: [Int] = []
    var stacks: [Int: [Trace2Reader.OpenRegion]] = [:]
    /// By `process << 32 | child_id`.
    var children: [Int: Trace2Reader.Child] = [:]
    /// The latest exit, atexit or signal time of each process.
    var processEnds: [Int: Double] = [:]
    /// The first event's time, µs since 1970: times are kept relative to it.
    var base: Int64?
    var events = 0

    /// A line refused, and why (the reader adds the file, line and column).
    struct Refusal: Error {
        var reason: String
    }

    private func text(_ bytes: Bytes) -> String { Trace2Reader.text(bytes) }
    private func regionName(_ label: Bytes?, _ category: Bytes?) -> String { Trace2Reader.regionName(label, category) }

    /// Adds the event `e` read on line `line`.
    mutating func add(_ e: Event, line: Int) throws(Refusal) {
        events += 1
        // Every time must be valid; those of events without phases count when placing the run.
        var time: Double?
        if let timeText = e.time {
            guard let micros = UTCTimestamp.microseconds(timeText) else {
                throw Refusal(reason: "'time' must be a UTC time such as 2024-05-01T12:00:00.123456Z, not '\(TraceError.clip(text(timeText)))'")
            }
            if base == nil { base = micros }
            time = Double(micros - base!) / 1e6
        }
        var process: Int?
        if let sid = e.sid { process = processNumber(sid) }
        guard e.kind != .other else {
            if let time { timeline.include(time) }
            return
        }
        guard let process, let threadName = e.thread, let time else {
            throw Refusal(
                reason: "a \(text(e.name)) event needs 'sid', 'thread' and 'time' (launchprof sets GIT_TRACE2_EVENT_BRIEF=false so that git writes them)")
        }
        let key = ThreadKey(process: process, name: threadName)
        let thread = threadNumber(key)
        switch e.kind {
        case .regionEnter: try enterRegion(e, key, thread: thread, time: time, line: line)
        case .regionLeave: try leaveRegion(e, key, thread: thread, time: time)
        case .childStart: try startChild(e, process: process, time: time, line: line)
        case .childExit: try exitChild(e, process: process, time: time)
        case .processEnd:
            processEnds[process] = max(processEnds[process] ?? -.infinity, time)
            timeline.include(time)
        case .other:
            break
        }
    }

    /// The number of the process `sid` (in the order processes first appear).
    private mutating func processNumber(_ sid: Bytes) -> Int {
        if let known = processes[sid] { return known }
        processes[sid] = sids.count
        sids.append(sid)
        return sids.count - 1
    }

    /// The number of a thread (in the order threads first appear).
    private mutating func threadNumber(_ key: ThreadKey) -> Int {
        if let known = threads[key] { return known }
        let thread = processOfThread.count
        threads[key] = thread
        processOfThread.append(key.process)
        return thread
    }

    /// `thread main of process <sid>`, for messages.
    private func place(_ key: ThreadKey) -> String {
        "thread \(text(key.name)) of process \(text(sids[key.process]))"
    }

    private mutating func enterRegion(_ e: Event, _ key: ThreadKey, thread: Int, time: Double, line: Int) throws(Refusal) {
        guard let nesting = e.nesting else { throw Refusal(reason: "region_enter without 'nesting'") }
        // The count and the innermost only: a copy of the stack held across the append below
        // would copy it on every region_enter.
        let open = stacks[thread]?.count ?? 0, parent = stacks[thread]?.last?.phase
        guard nesting == open + 1 else {
            throw Refusal(
                reason:
                    "region_enter of \(regionName(e.label, e.category)) at nesting \(nesting), but \(open) region\(open == 1 ? " is" : "s are") open on \(place(key)) (expected nesting \(open + 1))"
            )
        }
        do {
            let phase = try timeline.add(regionName(e.label, e.category), thread: thread, start: time, parent: parent, origin: line)
            stacks[thread, default: []].append(Trace2Reader.OpenRegion(phase: phase, nesting: nesting, category: e.category, label: e.label))
        } catch {
            throw Refusal(reason: error.reason)
        }
    }

    private mutating func leaveRegion(_ e: Event, _ key: ThreadKey, thread: Int, time: Double) throws(Refusal) {
        guard let nesting = e.nesting else { throw Refusal(reason: "region_leave without 'nesting'") }
        guard let open = stacks[thread]?.last else {
            throw Refusal(reason: "region_leave of \(regionName(e.label, e.category)), but no region is open on \(place(key))")
        }
        guard open.nesting == nesting, open.category == e.category, open.label == e.label else {
            throw Refusal(
                reason:
                    "region_leave of \(regionName(e.label, e.category)) at nesting \(nesting), but \(timeline.phases[open.phase].name) at nesting \(open.nesting) is the region open on \(place(key))"
            )
        }
        guard time >= timeline.phases[open.phase].start else {
            throw Refusal(reason: "region_leave of \(regionName(e.label, e.category)) is earlier than its region_enter (did the wall clock go back?)")
        }
        timeline.end(open.phase, at: time)
        stacks[thread]!.removeLast()
    }

    private mutating func startChild(_ e: Event, process: Int, time: Double, line: Int) throws(Refusal) {
        guard let id = e.childID else { throw Refusal(reason: "child_start without 'child_id'") }
        guard children[process << 32 | id] == nil else {
            throw Refusal(reason: "child_start of child \(id) of process \(text(sids[process])), which had started already")
        }
        let lifetime = processOfThread.count
        processOfThread.append(-1)
        do {
            let phase = try timeline.add("child: " + (e.argv ?? "?"), thread: lifetime, start: time, parent: nil, origin: line)
            children[process << 32 | id] = Trace2Reader.Child(phase: phase, pid: nil, exited: false)
        } catch {
            throw Refusal(reason: error.reason)
        }
    }

    private mutating func exitChild(_ e: Event, process: Int, time: Double) throws(Refusal) {
        guard let id = e.childID else { throw Refusal(reason: "child_exit without 'child_id'") }
        guard let child = children[process << 32 | id], !child.exited else {
            let started = children[process << 32 | id] != nil
            throw Refusal(reason: "child_exit of child \(id) of process \(text(sids[process])), which \(started ? "had exited already" : "never started")")
        }
        guard time >= timeline.phases[child.phase].start else {
            throw Refusal(reason: "child_exit of child \(id) is earlier than its child_start (did the wall clock go back?)")
        }
        timeline.end(child.phase, at: time)
        children[process << 32 | id] = Trace2Reader.Child(phase: child.phase, pid: e.pid, exited: true)
    }

    /// After the last event: child git processes' main threads nest in their `child:` phases,
    /// regions still open end with their process, and the first process's main thread is thread 0.
    mutating func finish() throws(Refusal) {
        let (adoptions, childEnds) = childProcesses()
        // Regions still open end with their process.
        for (thread, stack) in stacks where !stack.isEmpty {
            let process = processOfThread[thread]
            let end = processEnds[process] ?? childEnds[process] ?? .infinity
            for region in stack { timeline.end(region.phase, at: max(end, timeline.phases[region.phase].start)) }
        }
        do {
            try timeline.adopt(adoptions)
        } catch {
            throw Refusal(reason: error.reason)
        }
        timeline.renumberThreads(first: threads[ThreadKey(process: 0, name: Array("main".utf8)[...])] ?? -1)
    }

    /// A child git process: `<parent sid>/<its own sid>`, which ends with `-P<pid in hex>`; its
    /// parent's child_exit names the pid. Its main thread's phase for each such process (to adopt
    /// under the `child:` phase), and when the child ended, by process.
    private func childProcesses() -> (adoptions: [Int: Int], childEnds: [Int: Double]) {
        var byPid: [Int: Trace2Reader.Child] = [:]
        for (key, child) in children.sorted(by: { $0.value.phase < $1.value.phase }) {
            let parent = key >> 32
            if let pid = child.pid, pid > 0, byPid[parent << 32 | pid] == nil { byPid[parent << 32 | pid] = child }
        }
        var adoptions: [Int: Int] = [:]
        var childEnds: [Int: Double] = [:]
        for (process, sid) in sids.enumerated() {
            guard let slash = sid.lastIndex(of: UInt8(ascii: "/")), let parent = processes[sid[..<slash]],
                let pid = Trace2Reader.pidOfSid(sid[(slash + 1)...]), let child = byPid[parent << 32 | pid]
            else { continue }
            if let main = threads[ThreadKey(process: process, name: Array("main".utf8)[...])] { adoptions[main] = child.phase }
            childEnds[process] = timeline.phases[child.phase].end
        }
        return (adoptions, childEnds)
    }
}

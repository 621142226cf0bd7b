import LaunchCore
import LaunchStats

/// The runs of a result: each run's phases (by ``PlainPhaseScanner`` or the general parser), marks,
/// counters, taps and process record, checked and added to the table.
extension ResultStreamParser {
    // MARK: Runs

    // The keys of each typed object, in the order of the indices their parsers switch on.
    static let runKeys = KeySet([
        "phases", "total", "index", "pid", "marks", "counters", "deferred", "peakResidentBytes", "instructions", "taps", "process",
        "clockGigahertz"
    ])
    static let processKeys = KeySet(["user", "system", "exitStatus", "signal", "killedOverMemoryLimit", "counters"])
    static let phaseCounterKeys = KeySet([
        "cpuTime", "runnableTime", "minorFaults", "majorFaults", "voluntarySwitches", "involuntarySwitches", "bytesRead", "bytesWritten"
    ])
    static let phaseKeys = PlainPhaseScanner.keys
    static let markKeys = KeySet(["name", "time", "thread"])
    static let tapKeys = KeySet(["delivered", "lost", "latencies"])
    static let counterKeys = KeySet(["name", "value"])

    func runs() throws(JSONFailure) {
        try array(depth: 2) { (r: Int) throws(JSONFailure) in
            runIndex = r
            try run()
            runIndex = -1
        }
    }

    /// A run's fields as read: the keys seen (one bit each) and the values the table takes.
    struct RunFields {
        var seen: UInt16 = 0
        var total: Double?
        var instructions: Int?
        /// What the main thread's launch phases spent waiting (duration less host duration).
        var hostSaving = 0.0
        var deferred: [String]?
    }

    /// One run: its fields checked, its phases, marks and counters added to the table.
    func run() throws(JSONFailure) {
        var f = RunFields()
        topLevelCounters = nil
        processCounters = nil
        phaseRows.removeAll(keepingCapacity: true)
        try object(depth: 3, keys: Self.runKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            try runField(key, &f)
        }
        // phases, total, index, marks, counters, deferred.
        try requireKeys(f.seen, of: Self.runKeys, required: 0b111_0111)
        guard let total = f.total, let runDeferred = f.deferred else { throw schema("missing key") }
        if runCount == 0 { deferred = runDeferred }
        totals.append(total)
        hostTotals.append(total - f.hostSaving)
        if let instructions = f.instructions { instructionTotals.append(Double(instructions)) }
        if let counters = processCounters ?? topLevelCounters { totalCounters.append(counters) }
        runCount += 1
    }

    /// The value of a run's key number `key` (in ``runKeys``), read into `f`; a key seen twice is refused.
    func runField(_ key: Int, _ f: inout RunFields) throws(JSONFailure) {
        try firstSight(of: key, in: Self.runKeys, seen: &f.seen)
        switch key {
        case 0:
            field = nil
            listName = "phases"
            try array(depth: 4) { (i: Int) throws(JSONFailure) in
                listIndex = i
                try phase(i, hostSaving: &f.hostSaving)
                listIndex = -1
            }
            listName = nil
        case 1: f.total = try doubleValue()
        case 2: _ = try intValue()
        case 3, 7: if try !isNull() { _ = try intValue() }  // pid, peakResidentBytes
        case 4: try marks()
        case 5: try counters()
        case 6:
            var names: [String] = []
            try array(depth: 4) { (i: Int) throws(JSONFailure) in
                generic = ["[\(i)]"]
                names.append(try stringValue())
                generic = []
            }
            f.deferred = names
        case 8:
            if try !isNull() {
                let count = try intValue()
                guard count >= 0 else { throw schema("an instruction count must not be negative, found \(count)") }
                f.instructions = count
            }
        case 9: if try !isNull() { try taps() }
        case 10: if try !isNull() { try process() }
        default:
            if try !isNull() {
                let clock = try doubleValue()
                guard ClockProbe.plausibleGigahertz.contains(clock) else {
                    throw schema("a clock must be between 0.05 and 20 GHz, found \(clock)")
                }
            }
        }
    }

    /// A phase by the plain-phase scanner when it can read it, else by the general parser; both then apply the
    /// same checks and make the same row.
    func phase(_ index: Int, hostSaving: inout Double) throws(JSONFailure) {
        var f = PhaseFields()
        if try !plainPhase(into: &f) { f = try phaseFields() }
        try record(f, index: index, hostSaving: &hostSaving)
    }

    /// Reads the phase at the current position by ``PlainPhaseScanner`` into `f`, consumed; `false`
    /// (nothing consumed, `f` empty) when the plain-phase scanner leaves it to the general parser.
    func plainPhase(into f: inout PhaseFields) throws(JSONFailure) -> Bool {
        guard plainScanner, try scanner.peek() == 0x7B else { return false }
        let input = scanner.input
        let (base, pos, end) = input.window
        var outcome = PlainPhaseScanner.Outcome(nameStart: 0, nameCount: 0, end: 0, newlines: 0, lastLineStart: 0)
        guard PlainPhaseScanner.scan(base, from: pos, end: end, into: &f, outcome: &outcome) else {
            f = PhaseFields()
            return false
        }
        f.name = names.intern(bytes: UnsafeBufferPointer(start: base + outcome.nameStart, count: outcome.nameCount))
        input.advance(to: outcome.end, newlines: outcome.newlines, lastLineStart: outcome.lastLineStart)
        return true
    }

    /// Marks key number `key` (in `keys`) as seen, and as the ``field`` being read; a key seen twice is refused.
    func firstSight(of key: Int, in keys: KeySet, seen: inout UInt16) throws(JSONFailure) {
        let bit = UInt16(1) << UInt16(key)
        guard seen & bit == 0 else { throw schema("the key \"\(keys.names[key])\" appears twice") }
        seen |= bit
        field = keys.names[key]
    }

    /// Refuses an object that lacks one of the keys in `required` (bits of `keys`' indices, every key
    /// by default), naming the first one missing.
    func requireKeys(_ seen: UInt16, of keys: KeySet, required: UInt16 = .max) throws(JSONFailure) {
        for key in keys.names.indices where required & (1 << UInt16(key)) != 0 && seen & (1 << UInt16(key)) == 0 {
            throw schema("missing key \"\(keys.names[key])\"")
        }
    }

    /// The phase at the current position by the general parser.
    func phaseFields() throws(JSONFailure) -> PhaseFields {
        var f = PhaseFields()
        var seen: UInt16 = 0
        try object(depth: 5, keys: Self.phaseKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            try firstSight(of: key, in: Self.phaseKeys, seen: &seen)
            try phaseField(key, into: &f)
        }
        return f
    }

    /// The value of a phase's key number `key` (in ``phaseKeys``), read into `f`.
    func phaseField(_ key: Int, into f: inout PhaseFields) throws(JSONFailure) {
        switch key {
        case 0: f.duration = try doubleValue()
        case 1: f.name = try phaseName()
        case 2: f.start = try checkedDoubleValue()  // Only checked: the table has no use for start times.
        case 3: f.depth = try intValue()
        case 4: f.thread = try intValue()
        case 5: f.afterLaunch = try boolValue()
        case 6: f.parent = try isNull() ? nil : intValue()
        case 7: f.kind = try isNull() ? nil : phaseKind()
        case 8: f.instructions = try isNull() ? nil : intValue()
        case 9: f.hostDuration = try isNull() ? nil : doubleValue()
        case 10: f.residentBytes = try isNull() ? nil : intValue()
        case 11: f.residentGrowth = try isNull() ? nil : intValue()
        case 12: f.background = try isNull() ? nil : boolValue()
        default: f.counters = try isNull() ? nil : phaseCounters(depth: 6)
        }
    }

    /// A phase's name, interned.
    func phaseName() throws(JSONFailure) -> Int32 {
        guard try scanner.peek() == 0x22 else { throw typeMismatch("a string") }
        let token = try scanner.string()
        return names.intern(token, scanner: scanner, scratch: &scratch)
    }

    func phaseKind() throws(JSONFailure) -> PhaseKind {
        let text = try stringValue()
        guard let kind = PhaseKind(rawValue: text) else {
            throw schema("\"\(text.prefix(40))\" is not a phase kind (\(PhaseKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return kind
    }

    /// A phase's fields that every phase has, checked.
    struct RequiredPhaseFields {
        var duration: Double
        var thread: Int
        var depth: Int
        var afterLaunch: Bool
    }

    /// Checks a phase's fields and adds its values to its row, and to the run's when it is a launch phase at the top level.
    func record(_ f: PhaseFields, index: Int, hostSaving: inout Double) throws(JSONFailure) {
        let phase = try checked(f, index: index)
        let row = self.row(of: f, phase, index: index)
        phaseRows.append(row)
        addValues(of: f, duration: phase.duration, to: Int(row))
        guard phase.depth == 0 && !phase.afterLaunch else { return }
        if let counters = f.counters { topLevelCounters = topLevelCounters.map { $0 + counters } ?? counters }
        // The main thread's waits only: a worker's overlap them, and the total is the main thread's.
        if phase.thread == 0, let host = f.hostDuration { hostSaving += phase.duration - host }
    }

    /// A phase's required fields, after the same consistency rules as ResultFile.consistencyProblem (with the same words).
    @inline(__always) func checked(_ f: PhaseFields, index: Int) throws(JSONFailure) -> RequiredPhaseFields {
        guard f.name >= 0 else { throw schema("missing key \"name\"") }
        guard f.start != nil else { throw schema("missing key \"start\"") }
        guard let duration = f.duration else { throw schema("missing key \"duration\"") }
        guard let thread = f.thread else { throw schema("missing key \"thread\"") }
        guard let depth = f.depth else { throw schema("missing key \"depth\"") }
        guard let afterLaunch = f.afterLaunch else { throw schema("missing key \"afterLaunch\"") }
        if let parent = f.parent, parent < 0 || parent >= index {
            field = "parent"
            throw schema("\(parent) is not an earlier phase of the run")
        }
        guard duration >= 0 else { throw schema("start and duration must be finite, and the duration not negative") }
        if let host = f.hostDuration, host < 0 { field = "hostDuration"; throw schema("must be a finite, non-negative number") }
        guard depth >= 0, thread >= 0 else { throw schema("depth and thread must not be negative") }
        guard depth <= ResultLimits.maximumPhaseDepth else {
            field = "depth"; throw schema("\(depth) is deeper than the \(ResultLimits.maximumPhaseDepth) levels of phases a result may nest")
        }
        if let count = f.instructions, count < 0 { field = "instructions"; throw schema("an instruction count must not be negative, found \(count)") }
        return RequiredPhaseFields(duration: duration, thread: thread, depth: depth, afterLaunch: afterLaunch)
    }

    /// The phase's row: by its parent's row and its name, so a path string is built only once per row.
    @inline(__always) func row(of f: PhaseFields, _ phase: RequiredPhaseFields, index: Int) -> Int32 {
        let parentRow: Int32 = f.parent.map { phaseRows[$0] } ?? -1
        let node = UInt64(UInt32(bitPattern: parentRow)) << 32 | UInt64(UInt32(bitPattern: f.name))
        // The same phase at the same index as in the run before: the common case, without hashing.
        if index < nodeAtIndex.count && nodeAtIndex[index] == node { return rowAtIndex[index] }
        let row: Int32
        if let existing = rowByNode[node] {
            row = existing
        } else {
            row = self.row(atPathOf: f, phase, under: parentRow)
            rowByNode[node] = row
        }
        if index < nodeAtIndex.count {
            nodeAtIndex[index] = node
            rowAtIndex[index] = row
        } else if index == nodeAtIndex.count {
            nodeAtIndex.append(node)
            rowAtIndex.append(row)
        }
        return row
    }

    /// The row of the phase's path (its parent row's path and its name), made when it is new.
    func row(atPathOf f: PhaseFields, _ phase: RequiredPhaseFields, under parentRow: Int32) -> Int32 {
        let name = names.strings[Int(f.name)]
        let path = parentRow >= 0 ? rows[Int(parentRow)].path + "/" + name : name
        if let existing = rowByPath[path] { return existing }
        let row = Int32(rows.count)
        rowByPath[path] = row
        var newRow = PhaseTable.Row(path: path, name: name, depth: phase.depth, kind: f.kind, afterLaunch: phase.afterLaunch)
        newRow.inBackground = f.background == true
        newRow.onWorkerThread = phase.thread != 0
        rows.append(newRow)
        return row
    }

    /// Adds a phase's measurements to row `r`.
    @inline(__always) func addValues(of f: PhaseFields, duration: Double, to r: Int) {
        rows[r].durations.append(duration)
        if let host = f.hostDuration { rows[r].hostDurations.append(host) }
        if let rss = f.residentBytes { rows[r].residentBytes.append(rss) }
        if let growth = f.residentGrowth { rows[r].residentGrowth.append(growth) }
        if let count = f.instructions { rows[r].instructions.append(Double(count)) }
        if let counters = f.counters { rows[r].addCounters(counters, duration: duration) }
    }

    func marks() throws(JSONFailure) {
        let saved = field
        field = nil
        listName = "marks"
        defer { listName = nil; field = saved }
        var found: [(name: String, time: Double)] = []
        defer { runMarks.append(found) }
        try array(depth: 4) { (i: Int) throws(JSONFailure) in
            listIndex = i
            var seen: UInt16 = 0
            var markName = "", markTime = 0.0
            try object(depth: 5, keys: Self.markKeys) { (key: Int) throws(JSONFailure) in
                defer { field = nil }
                try firstSight(of: key, in: Self.markKeys, seen: &seen)
                switch key {
                case 0: markName = try stringValue()
                case 1: markTime = try doubleValue()
                default: _ = try intValue()
                }
            }
            try requireKeys(seen, of: Self.markKeys)
            found.append((markName, markTime))
            listIndex = -1
        }
    }

    func taps() throws(JSONFailure) {
        let saved = field
        defer { field = saved }
        var latencies: [Double] = []
        var seen: UInt8 = 0
        try object(depth: 4, keys: Self.tapKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            guard seen & (1 << key) == 0 else { throw schema("a key of \"taps\" appears twice") }
            seen |= 1 << key
            if key == 0 || key == 1 {
                field = key == 0 ? "delivered" : "lost"
                let count = try intValue()
                guard count >= 0 else { throw schema("a tap count must not be negative") }
                if key == 1 { tapsLost = tapsLost.addingReportingOverflow(count).overflow ? Int.max : tapsLost + count }
            } else {
                field = "latencies"
                try array(depth: 5) { (i: Int) throws(JSONFailure) in
                    generic = ["[\(i)]"]
                    let value = try doubleValue()
                    guard value >= 0 else { throw schema("a latency must not be negative") }
                    latencies.append(value)
                    generic = []
                }
            }
        }
        guard seen == 7 else { throw schema("\"taps\" needs delivered, lost and latencies") }
        runTapLatencies.append(latencies)
    }

    func process() throws(JSONFailure) {
        let saved = field
        defer { field = saved }
        var record = ProcessRecord(user: 0, system: 0, exitStatus: nil)
        var seen: UInt8 = 0
        try object(depth: 4, keys: Self.processKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            guard seen & (1 << key) == 0 else { throw schema("a key of \"process\" appears twice") }
            seen |= 1 << key
            switch key {
            case 0, 1:
                field = key == 0 ? "user" : "system"
                let seconds = try doubleValue()
                guard seconds >= 0 else { throw schema("a CPU time must not be negative") }
                if key == 0 { record.user = seconds } else { record.system = seconds }
            case 4:
                field = "killedOverMemoryLimit"
                if try !isNull() { record.killedOverMemoryLimit = try boolValue() }
            case 5:
                field = "counters"
                if try !isNull() {
                    record.counters = try phaseCounters(depth: 5, at: ["process", "counters"])
                    processCounters = record.counters
                }
            default:
                field = key == 2 ? "exitStatus" : "signal"
                if try !isNull() {
                    let value = try intValue()
                    guard (0...255).contains(value) else { throw schema("an exit status or signal must be from 0 to 255, found \(value)") }
                    if key == 2 { record.exitStatus = value } else { record.signal = value }
                }
            }
        }
        guard seen & 3 == 3 else { throw schema("\"process\" needs user and system") }
        runProcesses.append(record)
    }

    /// A phase's or process's system counters (``PhaseCounters``): every value a non-negative number,
    /// `cpuTime`, the faults and the switches required.
    func phaseCounters(depth: Int, at path: [String] = ["counters"]) throws(JSONFailure) -> PhaseCounters {
        let saved = field
        defer { field = saved }
        var values: [Double?] = Array(repeating: nil, count: 8)
        let names = ["cpuTime", "runnableTime", "minorFaults", "majorFaults", "voluntarySwitches", "involuntarySwitches", "bytesRead", "bytesWritten"]
        try object(depth: depth, keys: Self.phaseCounterKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            guard values[key] == nil else { throw schema("a key of \"counters\" appears twice") }
            field = nil
            generic = path + [names[key]]
            defer { generic = [] }
            if try isNull() { values[key] = -1; return }
            let value = key < 2 ? try doubleValue() : Double(try intValue())
            guard value >= 0 else { throw schema("a counter must not be negative, found \(value)") }
            values[key] = value
        }
        generic = path
        defer { generic = [] }
        for key in [0, 2, 3, 4, 5] where values[key] == nil || values[key]! < 0 { throw schema("\"counters\" needs \(names[key])") }
        func int(_ key: Int) -> Int? { values[key].flatMap { $0 >= 0 ? Int($0) : nil } }
        return PhaseCounters(
            cpuTime: values[0]!, runnableTime: values[1].flatMap { $0 >= 0 ? $0 : nil }, minorFaults: int(2)!, majorFaults: int(3)!,
            voluntarySwitches: int(4)!, involuntarySwitches: int(5)!, bytesRead: int(6), bytesWritten: int(7))
    }

    func counters() throws(JSONFailure) {
        let saved = field
        field = nil
        listName = "counters"
        defer { listName = nil; field = saved }
        try array(depth: 4) { (i: Int) throws(JSONFailure) in
            listIndex = i
            var seen: UInt16 = 0
            var isDirtyAfterBackground = false, number = 0
            try object(depth: 5, keys: Self.counterKeys) { (key: Int) throws(JSONFailure) in
                defer { field = nil }
                try firstSight(of: key, in: Self.counterKeys, seen: &seen)
                if key == 0 {
                    isDirtyAfterBackground = try stringValue() == TabulatedResult.dirtyAfterBackgroundCounter
                } else {
                    number = try intValue()
                }
            }
            try requireKeys(seen, of: Self.counterKeys)
            if isDirtyAfterBackground { dirtyAfterBackground.append(number) }
            listIndex = -1
        }
    }
}

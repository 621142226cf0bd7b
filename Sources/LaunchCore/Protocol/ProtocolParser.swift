/// Reads the launchprof line protocol (`docs/protocol.md`) from a launched program and builds the
/// ``RunRecord`` of that launch. Feed it lines as they arrive; every malformed line is an error
/// naming its line number.
public struct ProtocolParser {
    /// The most phases of one run (docs/protocol.md, "Limits"); past it the run fails.
    public static let maximumPhases = 100_000
    /// The deepest nesting of phases on one thread: what result files accept (`depth` 0…256), so a
    /// recorded run can always be read back.
    public static let maximumDepth = 256
    /// The longest name of a phase, mark, counter or deferred phase, in UTF-8 bytes once unescaped
    /// (docs/protocol.md, "Limits"); a longer one fails the run. The clients cut a name to 4000 bytes as
    /// sent, and each byte of invalid UTF-8 is kept as U+FFFD (3 bytes): 12,000 bytes at most, within it.
    public static let maximumNameBytes = 12_288
    /// The most marks, distinct counters, deferred phases and `tap` lines of one run (each).
    public static let maximumEntries = 100_000
    /// The most bytes of a run's phase paths (each phase's name with its parents', `drawing/keys`,
    /// as reports key a phase), added up: what the reports build from the run stays in proportion.
    public static let maximumPathBytes = 64 << 20

    /// The monotonic reading the launcher took just before starting the process: the run's origin.
    public let spawnReading: UInt64
    /// Readings of lines that carry `-` instead of a time are stamped with this clock (receipt time).
    public var now: () -> UInt64 = { MonotonicClock.nanoseconds() }

    public private(set) var lineNumber = 0
    public private(set) var sawHello = false
    public private(set) var mainReading: UInt64?
    public private(set) var finished = false
    /// The innermost phase open on each thread (for crash reports: "while in …").
    /// Whether a `mark` named `name` has been read.
    public func sawMark(_ name: String) -> Bool { marks.contains { $0.name == name } }

    public var openPhaseNames: [String] { open.values.compactMap { $0.last }.map { phases[$0].name } }

    private var phases: [PhaseRecord] = []
    private var marks: [MarkRecord] = []
    private var counters: [CounterRecord] = []
    /// Where each counter name is in `counters` (a flood of distinct names stays linear).
    private var counterIndex: [String: Int] = [:]
    private var deferred: [String] = []
    private var open: [Int: [Int]] = [:]
    /// The bytes of each phase's path (its name with its parents', joined by `/`), and their sum.
    private var pathBytes: [Int] = []
    private var totalPathBytes = 0
    private var lastEnded: [Int: Int] = [:]
    private var launchedReading: UInt64?
    private var backgroundReading: UInt64?
    /// The readings at which applied taps were shown (`tap <ns> <key>` lines), in order.
    public private(set) var tapShownReadings: [UInt64] = []
    /// Taps the program dropped (`tap-lost <key>` lines).
    public private(set) var tapsLost = 0
    private var peak: Int?
    /// The clock a run on a device tier said it stretched at (`x-clock <GHz>`).
    private var clock: Double?

    public init(spawnReading: UInt64) {
        self.spawnReading = spawnReading
    }

    /// Accepts one line (without its newline).
    ///
    /// - Throws: ``CoreError/protocolLine(line:reason:)`` for a line the protocol does not allow.
    public mutating func consume(_ rawLine: Substring) throws(CoreError) {
        lineNumber += 1
        let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
        if line.isEmpty || line.hasPrefix("#") { return }
        guard !finished else { throw fail("unexpected line after 'done'") }
        let (verbText, rest) = ProtocolVerb.split(line)
        if !sawHello {
            try greeting(verbText, version: rest, line: line)
            return
        }
        guard let verb = ProtocolVerb(rawValue: String(verbText)) else {
            if verbText.hasPrefix(ProtocolVerb.extensionPrefix) { return }  // Extensions are ignored.
            let verbs = ProtocolVerb.recordVerbs.map(\.rawValue)
            throw fail("unknown line \(PlainText.quoted(line)) (expected \(verbs.dropLast().joined(separator: ", ")) or \(verbs.last!))")
        }
        try apply(verb, rest, line: line)
    }

    /// The first line: `launchprof 1`.
    private mutating func greeting(_ verbText: Substring, version: Substring, line: Substring) throws(CoreError) {
        guard verbText == ProtocolVerb.greeting.rawValue else { throw fail("expected the greeting 'launchprof 1' first, got \(PlainText.quoted(line))") }
        guard version == "1" else { throw fail("protocol version \(PlainText.quoted(version)) is not supported (this launchprof speaks version 1)") }
        sawHello = true
    }

    /// One line after the greeting: `verb rest`.
    private mutating func apply(_ verb: ProtocolVerb, _ rest: Substring, line: Substring) throws(CoreError) {
        switch verb {
        case .progress:
            return  // For the launcher's progress bar (ProcessLauncher reads it); no part of the run.
        case .clock:
            // An extension: a reading that is no plausible clock is ignored, as an unknown extension is.
            if let value = Double(rest), ClockProbe.plausibleGigahertz.contains(value) { clock = value }
        case .greeting:
            throw fail("a second greeting \(PlainText.quoted(line)): it must be the first line only")
        case .main:
            mainReading = try reading(rest, "main <ns>")
        case .begin:
            try begin(rest)
        case .end:
            try end(rest)
        case .stats:
            try stats(rest)
        case .mark:
            try mark(rest)
        case .count:
            try count(rest, line: line)
        case .deferred:
            guard !rest.isEmpty else { throw fail("deferred without a phase name") }
            guard deferred.count < Self.maximumEntries else {
                throw fail("more than \(Self.maximumEntries) deferred phases in one run (the limit of the protocol)")
            }
            deferred.append(try boundedName(rest, "deferred phase"))
        case .launched:
            launchedReading = try reading(rest, "launched <ns>")
        case .background:
            backgroundReading = try reading(rest, "background <ns>")
        case .tap:
            let (t, _) = split(rest)
            guard tapShownReadings.count < Self.maximumEntries else {
                throw fail("more than \(Self.maximumEntries) tap lines in one run (the limit of the protocol)")
            }
            tapShownReadings.append(try reading(t, "tap <ns> <key>"))
        case .tapLost:
            tapsLost += 1
        case .peak:
            guard let value = Int(rest), value >= 0 else { throw fail("expected 'peak <bytes>', got \(PlainText.quoted(line))") }
            peak = value
        case .done:
            _ = try reading(rest, "done <ns>")
            if let (thread, stack) = open.first(where: { !$0.value.isEmpty }) {
                throw fail("'done' while \(PlainText.quoted(phases[stack.last!].name)) is still open on thread \(thread)")
            }
            finished = true
        }
    }

    /// `begin <ns> <thread> <kind> <name>`: a phase opens, inside the one open on its thread.
    private mutating func begin(_ rest: Substring) throws(CoreError) {
        let (t, afterTime) = split(rest)
        let (threadText, afterThread) = split(afterTime)
        let (kindText, name) = split(afterThread)
        let time = try reading(t, "begin <ns> <thread> <kind> <name>")
        let thread = try threadNumber(threadText)
        guard kindText == "-" || PhaseKind(rawValue: String(kindText)) != nil else {
            throw fail("unknown kind \(PlainText.quoted(kindText)) (expected cpu, io, decode, draw or -)")
        }
        guard !name.isEmpty else { throw fail("begin without a phase name") }
        // No copy of the stack held across the append below (that would copy it on every begin).
        let parent = open[thread]?.last
        let depth = open[thread]?.count ?? 0
        guard phases.count < Self.maximumPhases else {
            throw fail("more than \(Self.maximumPhases) phases in one run (the limit of the protocol)")
        }
        guard depth < Self.maximumDepth else {
            throw fail("phases nested more than \(Self.maximumDepth) deep on thread \(thread) (the limit of the protocol)")
        }
        let phaseName = try boundedName(name, "phase")
        try addPathBytes(phaseName.utf8.count + (parent.map { pathBytes[$0] + 1 } ?? 0))
        let inBackground = backgroundReading.map { time >= $0 } ?? false
        let afterLaunch = inBackground || (launchedReading.map { time >= $0 } ?? false)
        phases.append(
            PhaseRecord(
                name: phaseName, kind: PhaseKind(rawValue: String(kindText)), start: seconds(time), duration: 0,
                thread: thread, depth: depth, parent: parent, afterLaunch: afterLaunch, background: inBackground ? true : nil))
        open[thread, default: []].append(phases.count - 1)
    }

    /// Counts a new phase's path bytes against ``maximumPathBytes``.
    private mutating func addPathBytes(_ path: Int) throws(CoreError) {
        guard totalPathBytes + path <= Self.maximumPathBytes else {
            throw fail(
                "more than \(InputLimit.describe(Self.maximumPathBytes)) of phase paths (names with their parents') in one run (the limit of the protocol)")
        }
        totalPathBytes += path
        pathBytes.append(path)
    }

    /// `end <ns> <thread> <name>`: the phase open on the thread, which must have that name, ends.
    private mutating func end(_ rest: Substring) throws(CoreError) {
        let (t, afterTime) = split(rest)
        let (threadText, name) = split(afterTime)
        let time = try reading(t, "end <ns> <thread> <name>")
        let thread = try threadNumber(threadText)
        let ended = Self.unescape(name)
        guard let index = open[thread]?.last else {
            throw fail("end of \(PlainText.quoted(ended)) on thread \(thread), but no phase is open there")
        }
        guard phases[index].name == ended else {
            throw fail("end of \(PlainText.quoted(ended)) on thread \(thread), but \(PlainText.quoted(phases[index].name)) is the phase open there")
        }
        let duration = seconds(time) - phases[index].start
        guard duration >= 0 else { throw fail("phase \(PlainText.quoted(phases[index].name)) ends before it begins") }
        phases[index].duration = duration
        open[thread]!.removeLast()
        lastEnded[thread] = index
    }

    /// `stats <thread> key=value…`: statistics of the phase that last ended on the thread.
    private mutating func stats(_ rest: Substring) throws(CoreError) {
        let (threadText, fields) = split(rest)
        let thread = try threadNumber(threadText)
        guard let index = lastEnded[thread] else { throw fail("stats on thread \(thread) before any phase ended there") }
        var counters = StatsCounters()
        for field in fields.split(separator: " ") {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Int(pair[1]) else { throw fail("stats field \(PlainText.quoted(field)) is not key=integer") }
            switch pair[0] {
            case "host": phases[index].hostDuration = Double(value) / 1e9
            case "rss": phases[index].residentBytes = value
            case "growth": phases[index].residentGrowth = value
            default:
                // Unknown statistics are ignored: later versions may add some.
                guard counters.accept(String(pair[0]), value) else { break }
                guard value >= 0 else { throw fail("stats field \(PlainText.quoted(field)) must not be negative") }
            }
        }
        if counters.seen {
            guard let phaseCounters = counters.counters else {
                throw fail("stats with system counters must carry cpu, minflt, majflt, vcsw and ivcsw together (docs/protocol.md)")
            }
            phases[index].counters = phaseCounters
        }
    }

    /// `mark <ns> <thread> <name>`: a moment of the run.
    private mutating func mark(_ rest: Substring) throws(CoreError) {
        let (t, afterTime) = split(rest)
        let (threadText, name) = split(afterTime)
        let time = try reading(t, "mark <ns> <thread> <name>")
        guard !name.isEmpty else { throw fail("mark without a name") }
        guard marks.count < Self.maximumEntries else { throw fail("more than \(Self.maximumEntries) marks in one run (the limit of the protocol)") }
        marks.append(MarkRecord(name: try boundedName(name, "mark"), time: seconds(time), thread: try threadNumber(threadText)))
    }

    /// `count <integer> <name>`: adds to the counter of that name.
    private mutating func count(_ rest: Substring, line: Substring) throws(CoreError) {
        let (valueText, name) = split(rest)
        guard let value = Int(valueText), !name.isEmpty else { throw fail("expected 'count <integer> <name>', got \(PlainText.quoted(line))") }
        let key = try boundedName(name, "counter")
        if let i = counterIndex[key] {
            let (sum, overflow) = counters[i].value.addingReportingOverflow(value)
            guard !overflow else { throw fail("counter \(PlainText.quoted(Self.unescape(name))) overflows a 64-bit integer") }
            counters[i].value = sum
        } else {
            guard counters.count < Self.maximumEntries else {
                throw fail("more than \(Self.maximumEntries) counters in one run (the limit of the protocol)")
            }
            counterIndex[key] = counters.count
            counters.append(CounterRecord(name: key, value: value))
        }
    }

    /// Ends every phase still open at `reading` (a program that is ready, `--ready-when-…`, and is
    /// stopped there: what it was doing counts up to the moment it was ready).
    public mutating func closeOpenPhases(at reading: UInt64) {
        for (_, stack) in open {
            for index in stack { phases[index].duration = max(0, seconds(reading) - phases[index].start) }
        }
        open = [:]
    }

    /// The name of the phase that stands for the time from spawn to `main`.
    public static let processStartPhase = "process start"

    /// The run described so far, timed from the spawn. When the program reported `main`, a first
    /// phase, ``processStartPhase``, covers spawn to main (loader, dynamic libraries, runtime start).
    /// `total` runs from the spawn to the end of the last launch phase.
    public func run(index: Int, pid: Int?) -> RunRecord {
        var all = phases
        if let mainReading {
            all = phases.map { phase in
                var shifted = phase
                shifted.parent = phase.parent.map { $0 + 1 }
                return shifted
            }
            all.insert(PhaseRecord(name: Self.processStartPhase, kind: .io, start: 0, duration: seconds(mainReading)), at: 0)
        }
        let launchEnd = all.filter { !$0.afterLaunch }.map(\.end).max() ?? 0
        var record = RunRecord(
            index: index, pid: pid, total: launchEnd, phases: all, marks: marks,
            counters: counters, deferred: deferred)
        record.peakResidentBytes = peak
        record.clockGigahertz = clock
        return record
    }

    // MARK: Helpers

    private func fail(_ reason: String) -> CoreError { .protocolLine(line: lineNumber, reason: reason) }

    private func split(_ text: Substring) -> (Substring, Substring) { ProtocolVerb.split(text) }

    private func reading(_ text: Substring, _ form: String) throws(CoreError) -> UInt64 {
        if text == "-" { return now() }
        guard let value = UInt64(text) else {
            throw fail("expected '\(form)' with <ns> a CLOCK_MONOTONIC reading in nanoseconds, got \(PlainText.quoted(text))")
        }
        return value
    }

    private func threadNumber(_ text: Substring) throws(CoreError) -> Int {
        guard let value = Int(text), value >= 0, value < 1 << 20 else { throw fail("thread must be a small whole number, not \(PlainText.quoted(text))") }
        return value
    }

    private func seconds(_ reading: UInt64) -> Double {
        LaunchClock(originNanoseconds: spawnReading).seconds(atReading: reading)
    }

    /// The unescaped `text`, a name of a `what` (phase, mark, …) within ``maximumNameBytes``.
    private func boundedName(_ text: Substring, _ what: String) throws(CoreError) -> String {
        let name = Self.unescape(text)
        guard name.utf8.count <= Self.maximumNameBytes else {
            throw fail(
                "a \(what) name of \(name.utf8.count) bytes (\(PlainText.quoted(name, limit: 40))), longer than the limit of \(Self.maximumNameBytes) (the limit of the protocol)"
            )
        }
        return name
    }

    /// Undoes ``ProtocolWriter/escape(_:)``, by Unicode scalar (a backslash may combine with a
    /// following mark into one Character).
    public static func unescape(_ text: Substring) -> String {
        guard text.unicodeScalars.contains("\\") else { return String(text) }
        var out = ""
        var escaping = false
        for c in text.unicodeScalars {
            if escaping {
                switch c {
                case "n": out.unicodeScalars.append("\n")
                case "r": out.unicodeScalars.append("\r")
                case "t": out.unicodeScalars.append("\t")
                default: out.unicodeScalars.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

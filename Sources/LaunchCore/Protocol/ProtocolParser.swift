/// Reads the launchprof line protocol (`docs/protocol.md`) from a launched program and builds the
/// ``RunRecord`` of that launch. Feed it lines as they arrive; every malformed line is an error
/// naming its line number.
public struct ProtocolParser {
    /// The most phases of one run (docs/protocol.md, "Limits"); past it the run fails.
    public static let maximumPhases = 100_000
    /// The deepest nesting of phases on one thread: what result files accept (`depth` 0…256), so a
    /// recorded run can always be read back.
    public static let maximumDepth = 256

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
    private var lastEnded: [Int: Int] = [:]
    private var launchedReading: UInt64?
    private var backgroundReading: UInt64?
    /// The readings at which applied taps were shown (`tap <ns> <key>` lines), in order.
    public private(set) var tapShownReadings: [UInt64] = []
    /// Taps the program dropped (`tap-lost <key>` lines).
    public private(set) var tapsLost = 0
    private var peak: Int?

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
            guard verbText == ProtocolVerb.greeting.rawValue else { throw fail("expected the greeting 'launchprof 1' first, got '\(clip(line))'") }
            guard rest == "1" else { throw fail("protocol version '\(rest)' is not supported (this launchprof speaks version 1)") }
            sawHello = true
            return
        }
        guard let verb = ProtocolVerb(rawValue: String(verbText)) else {
            if verbText.hasPrefix(ProtocolVerb.extensionPrefix) { return }  // Extensions are ignored.
            let verbs = ProtocolVerb.recordVerbs.map(\.rawValue)
            throw fail("unknown line '\(clip(line))' (expected \(verbs.dropLast().joined(separator: ", ")) or \(verbs.last!))")
        }
        switch verb {
        case .progress:
            return  // For the launcher's progress bar (AppLauncher reads it); no part of the run.
        case .greeting:
            throw fail("a second greeting '\(clip(line))': it must be the first line only")
        case .main:
            mainReading = try reading(rest, "main <ns>")
        case .begin:
            let (t, afterTime) = split(rest)
            let (threadText, afterThread) = split(afterTime)
            let (kindText, name) = split(afterThread)
            let time = try reading(t, "begin <ns> <thread> <kind> <name>")
            let thread = try threadNumber(threadText)
            guard kindText == "-" || PhaseKind(rawValue: String(kindText)) != nil else {
                throw fail("unknown kind '\(kindText)' (expected cpu, io, decode, draw or -)")
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
            let inBackground = backgroundReading.map { time >= $0 } ?? false
            let afterLaunch = inBackground || (launchedReading.map { time >= $0 } ?? false)
            phases.append(
                PhaseRecord(
                    name: Self.unescape(name), kind: PhaseKind(rawValue: String(kindText)), start: seconds(time), duration: 0,
                    thread: thread, depth: depth, parent: parent, afterLaunch: afterLaunch, background: inBackground ? true : nil))
            open[thread, default: []].append(phases.count - 1)
        case .end:
            let (t, afterTime) = split(rest)
            let (threadText, name) = split(afterTime)
            let time = try reading(t, "end <ns> <thread> <name>")
            let thread = try threadNumber(threadText)
            guard let index = open[thread]?.last else {
                throw fail("end of '\(Self.unescape(name))' on thread \(thread), but no phase is open there")
            }
            guard phases[index].name == Self.unescape(name) else {
                throw fail("end of '\(Self.unescape(name))' on thread \(thread), but '\(phases[index].name)' is the phase open there")
            }
            let duration = seconds(time) - phases[index].start
            guard duration >= 0 else { throw fail("phase '\(phases[index].name)' ends before it begins") }
            phases[index].duration = duration
            open[thread]!.removeLast()
            lastEnded[thread] = index
        case .stats:
            let (threadText, fields) = split(rest)
            let thread = try threadNumber(threadText)
            guard let index = lastEnded[thread] else { throw fail("stats on thread \(thread) before any phase ended there") }
            for field in fields.split(separator: " ") {
                let pair = field.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, let value = Int(pair[1]) else { throw fail("stats field '\(field)' is not key=integer") }
                switch pair[0] {
                case "host": phases[index].hostDuration = Double(value) / 1e9
                case "rss": phases[index].residentBytes = value
                case "growth": phases[index].residentGrowth = value
                default: break  // Unknown statistics are ignored: later versions may add some.
                }
            }
        case .mark:
            let (t, afterTime) = split(rest)
            let (threadText, name) = split(afterTime)
            let time = try reading(t, "mark <ns> <thread> <name>")
            guard !name.isEmpty else { throw fail("mark without a name") }
            marks.append(MarkRecord(name: Self.unescape(name), time: seconds(time), thread: try threadNumber(threadText)))
        case .count:
            let (valueText, name) = split(rest)
            guard let value = Int(valueText), !name.isEmpty else { throw fail("expected 'count <integer> <name>', got '\(clip(line))'") }
            let key = Self.unescape(name)
            if let i = counterIndex[key] {
                let (sum, overflow) = counters[i].value.addingReportingOverflow(value)
                guard !overflow else { throw fail("counter '\(clip(name))' overflows a 64-bit integer") }
                counters[i].value = sum
            } else {
                counterIndex[key] = counters.count
                counters.append(CounterRecord(name: key, value: value))
            }
        case .deferred:
            guard !rest.isEmpty else { throw fail("deferred without a phase name") }
            deferred.append(Self.unescape(rest))
        case .launched:
            launchedReading = try reading(rest, "launched <ns>")
        case .background:
            backgroundReading = try reading(rest, "background <ns>")
        case .tap:
            let (t, _) = split(rest)
            tapShownReadings.append(try reading(t, "tap <ns> <key>"))
        case .tapLost:
            tapsLost += 1
        case .peak:
            guard let value = Int(rest), value >= 0 else { throw fail("expected 'peak <bytes>', got '\(clip(line))'") }
            peak = value
        case .done:
            _ = try reading(rest, "done <ns>")
            if let (thread, stack) = open.first(where: { !$0.value.isEmpty }) {
                throw fail("'done' while '\(phases[stack.last!].name)' is still open on thread \(thread)")
            }
            finished = true
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
        return record
    }

    // MARK: Helpers

    private func fail(_ reason: String) -> CoreError { .protocolLine(line: lineNumber, reason: reason) }

    private func split(_ text: Substring) -> (Substring, Substring) { ProtocolVerb.split(text) }

    private func reading(_ text: Substring, _ form: String) throws(CoreError) -> UInt64 {
        if text == "-" { return now() }
        guard let value = UInt64(text) else { throw fail("expected '\(form)' with <ns> a CLOCK_MONOTONIC reading in nanoseconds, got '\(clip(text))'") }
        return value
    }

    private func threadNumber(_ text: Substring) throws(CoreError) -> Int {
        guard let value = Int(text), value >= 0, value < 1 << 20 else { throw fail("thread must be a small whole number, not '\(clip(text))'") }
        return value
    }

    private func seconds(_ reading: UInt64) -> Double {
        LaunchClock(originNanoseconds: spawnReading).seconds(atReading: reading)
    }

    private func clip(_ text: Substring) -> String {
        text.count > 60 ? String(text.prefix(60)) + "…" : String(text)
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

/// Writes a run in the launchprof line protocol (`docs/protocol.md`), the way the built-in app
/// reports its phases to `launchprof run` over a pipe.
///
/// ```
/// launchprof 1
/// main 81234000000
/// begin 81234100000 0 io loading themes
/// end 81235100000 0 loading themes
/// stats 0 rss=18452480 growth=65536
/// done 81240000000
/// ```
public enum ProtocolWriter {
    /// The protocol version this build speaks.
    public static let version = 1

    /// The lines for everything `recorders` recorded, with `mainReading` the monotonic reading taken at
    /// the top of `main`. Lazy phases never run are listed as `deferred`; counters as `count`.
    public static func lines(mainReading: UInt64, recorders: [PhaseRecorder], deferred: [String]) -> [String] {
        greeting(mainReading: mainReading) + report(recorders: recorders, deferred: deferred)
    }

    /// The first two lines: the greeting and the `main` reading. A program may send them at once and
    /// the ``report(recorders:deferred:)`` later.
    public static func greeting(mainReading: UInt64) -> [String] {
        [ProtocolVerb.greeting.line("\(version)"), ProtocolVerb.main.line("\(mainReading)")]
    }

    /// Every phase, mark, counter and deferred phase recorded, then `peak` and `done` (unless
    /// `finish` is false: a part of the report sent early, such as the launch's before the app
    /// serves the control channel). Phases that began at or after `background` (a clock reading)
    /// are the background step's: a `background` line precedes them.
    public static func report(
        recorders: [PhaseRecorder], deferred: [String], background: UInt64? = nil,
        finish: Bool = true
    ) -> [String] {
        var lines: [String] = []
        // The reading of the last `launched` line: another thread's after-launch phases may begin
        // before it (a preload worker's, under the launch animation), so they get their own.
        var launched: UInt64?
        var wentToBackground = false
        for recorder in recorders {
            let origin = recorder.clock.originNanoseconds
            func reading(_ seconds: Double) -> UInt64 {
                seconds >= 0 ? origin &+ nanoseconds(seconds) : origin &- nanoseconds(-seconds)
            }
            let phases = recorder.phaseRecords()
            var open: [Int] = []
            func close(_ i: Int) {
                let p = phases[i]
                lines.append(ProtocolVerb.end.line("\(reading(p.end))", "\(p.thread)", escape(p.name)))
                var stats: [String] = []
                if let host = p.hostDuration { stats.append("host=\(nanoseconds(host))") }
                if let rss = p.residentBytes { stats.append("rss=\(rss)") }
                if let growth = p.residentGrowth { stats.append("growth=\(growth)") }
                if let counters = p.counters { stats += countersFields(counters) }
                if !stats.isEmpty { lines.append(ProtocolVerb.stats.line(["\(p.thread)"] + stats)) }
            }
            for (i, phase) in phases.enumerated() {
                while let top = open.last, top != phase.parent {
                    close(top)
                    open.removeLast()
                }
                if phase.afterLaunch, launched.map({ reading(phase.start) < $0 }) ?? true {
                    while let top = open.popLast() { close(top) }
                    lines.append(ProtocolVerb.launched.line("\(reading(phase.start))"))
                    launched = reading(phase.start)
                }
                if let background, !wentToBackground, reading(phase.start) >= background {
                    while let top = open.popLast() { close(top) }
                    lines.append(ProtocolVerb.background.line("\(background)"))
                    wentToBackground = true
                }
                lines.append(ProtocolVerb.begin.line("\(reading(phase.start))", "\(phase.thread)", phase.kind?.rawValue ?? "-", escape(phase.name)))
                open.append(i)
            }
            while let top = open.popLast() { close(top) }
            for mark in recorder.markRecords() {
                lines.append(ProtocolVerb.mark.line("\(reading(mark.time))", "\(mark.thread)", escape(mark.name)))
            }
            for counter in recorder.counterRecords() {
                lines.append(ProtocolVerb.count.line("\(counter.value)", escape(counter.name)))
            }
        }
        for name in deferred { lines.append(ProtocolVerb.deferred.line(escape(name))) }
        guard finish else { return lines }
        lines.append(ProtocolVerb.peak.line("\(ProcessMemory.peakResidentBytes())"))
        lines.append(ProtocolVerb.done.line("\(MonotonicClock.nanoseconds())"))
        return lines
    }

    /// The `stats` fields of a phase's system counters (docs/protocol.md): `cpu=<ns> runnable=<ns>
    /// minflt=<n> majflt=<n> vcsw=<n> ivcsw=<n> rchar=<bytes> wchar=<bytes>`, those not read left out.
    public static func countersFields(_ c: PhaseCounters) -> [String] {
        var fields = ["cpu=\(nanoseconds(c.cpuTime))"]
        if let runnable = c.runnableTime { fields.append("runnable=\(nanoseconds(runnable))") }
        fields += ["minflt=\(c.minorFaults)", "majflt=\(c.majorFaults)", "vcsw=\(c.voluntarySwitches)", "ivcsw=\(c.involuntarySwitches)"]
        if let read = c.bytesRead { fields.append("rchar=\(read)") }
        if let written = c.bytesWritten { fields.append("wchar=\(written)") }
        return fields
    }

    /// `x-progress <stage>`: the stage the app has reached (for the launcher's progress bar).
    public static func progress(_ stage: String) -> String { ProtocolVerb.progress.line(escape(stage)) }

    /// `x-clock <GHz>`: the clock this process's emulated waits read (``ClockTries/processGigahertz``),
    /// or no line when they read none.
    public static func clock() -> [String] {
        ClockTries.processGigahertz.map { [ProtocolVerb.clock.line("\($0)")] } ?? []
    }

    /// `tap <ns> <key>`: a tap applied, shown at `reading`.
    public static func tap(shownAt reading: UInt64, key: String) -> String { ProtocolVerb.tap.line("\(reading)", escape(key)) }

    /// `tap-lost <key>`: a tap the app dropped.
    public static func tapLost(key: String) -> String { ProtocolVerb.tapLost.line(escape(key)) }

    /// `seconds` as whole nanoseconds, checked before converting: negative or NaN gives 0, and
    /// anything past `UInt64.max` nanoseconds (585 years) gives `UInt64.max`, never a trap.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        let value = (seconds * 1e9).rounded()
        guard value > 0 else { return 0 }
        guard value < 18_446_744_073_709_549_568 else { return .max }  // the largest Double below 2^64
        return UInt64(value)
    }

    /// A name with backslash, newline, carriage return and tab escaped, so it fits on one line.
    public static func escape(_ name: String) -> String {
        // Scalar by scalar: a CR LF pair is one Swift character, equal to neither CR nor LF.
        guard name.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\n" || $0 == "\r" || $0 == "\t" }) else { return name }
        return ScalarEscaping.escape(name) { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: nil
            }
        }
    }
}

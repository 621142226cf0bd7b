import Testing
import LaunchCore
@testable import LaunchTraces

/// chrome-trace from recorded Trace Event Format files.
@Suite struct ChromeTraceReaderTests {
    /// The spawn on the monotonic clock, in µs.
    static let spawn = Double(TraceTest.monotonicSpawn) / 1e3

    static func read(_ text: String, seconds: Double = 0.1) throws(TraceError) -> TraceReading {
        try ChromeTraceReader.read(Array(text.utf8), file: "trace.json", clock: TraceTest.clock(seconds: seconds))
    }

    /// `ts` `micros` after the spawn on the monotonic clock.
    static func ts(_ micros: Double) -> String { String(format6: spawn + micros) }

    static var startup: String {
        """
        {"displayTimeUnit": "ms", "otherData": {"version": "app 1.0", "nested": [1, {"a": [true, false, null]}]},
         "traceEvents": [
          {"name": "process_name", "ph": "M", "pid": 7, "args": {"name": "app"}},
          {"name": "thread_name", "ph": "M", "pid": 7, "tid": 9, "args": {"name": "loader"}},
          {"name": "startup", "cat": "app", "ph": "X", "ts": \(ts(1000)), "dur": 9000, "pid": 7, "tid": 7},
          {"name": "load config", "ph": "X", "ts": \(ts(1000)), "dur": 2000, "pid": 7, "tid": 7, "args": {"path": "/etc/app.conf"}},
          {"name": "parse", "ph": "X", "ts": \(ts(1500)), "dur": 500.5, "pid": 7, "tid": 7},
          {"name": "build UI", "ph": "B", "ts": \(ts(4000)), "pid": 7, "tid": 7},
          {"name": "layout", "ph": "B", "ts": \(ts(5000)), "pid": 7, "tid": 7},
          {"ph": "E", "ts": \(ts(6000)), "pid": 7, "tid": 7},
          {"ph": "E", "ts": \(ts(8000)), "pid": 7, "tid": 7},
          {"name": "first frame", "ph": "i", "s": "g", "ts": \(ts(9000)), "pid": 7, "tid": 7},
          {"name": "decode", "ph": "X", "ts": \(ts(500)), "dur": 3000, "pid": 7, "tid": 9},
          {"name": "frames", "ph": "C", "ts": \(ts(9500)), "pid": 7, "args": {"n": 1}},
          {"name": "interactive", "ph": "R", "ts": \(ts(9900)), "pid": 7, "tid": 7}
        ]}
        """
    }

    @Test func completeAndBeginEndEventsBecomeNestedPhasesAndInstantsMarks() throws {
        let reading = try Self.read(Self.startup)
        #expect(reading.anchor == .monotonicClock)
        let expected: [(String, Double, Double, Int, Int, String?)] = [  // name, start µs, duration µs, thread, depth, parent
            ("decode", 500, 3000, 1, 0, nil),
            ("startup", 1000, 9000, 0, 0, nil),
            ("load config", 1000, 2000, 0, 1, "startup"),
            ("parse", 1500, 500.5, 0, 2, "load config"),
            ("build UI", 4000, 4000, 0, 1, "startup"),
            ("layout", 5000, 1000, 0, 2, "build UI")
        ]
        #expect(reading.phases.map(\.name) == expected.map(\.0))
        for (phase, want) in zip(reading.phases, expected) {
            #expect(TraceTest.close(phase.start, want.1 / 1e6) && TraceTest.close(phase.duration, want.2 / 1e6), "\(phase)")
            #expect(phase.thread == want.3 && phase.depth == want.4, "\(phase)")
            #expect(phase.parent.map { reading.phases[$0].name } == want.5)
        }
        #expect(reading.marks.map(\.name) == ["first frame", "interactive"])
        #expect(TraceTest.close(reading.marks[0].time, 0.009) && reading.marks[0].thread == 0)
        TraceTest.expectWellFormed(reading, duration: 0.1)
    }

    /// A bare array may lack its final `]` (with or without a trailing comma after the last event).
    @Test func aBareArrayMayEndWithoutItsBracket() throws {
        for tail in ["", ",", ",\n  ", "]"] {
            let reading = try Self.read("[{\"name\":\"a\",\"ph\":\"X\",\"ts\":\(Self.ts(10)),\"dur\":5,\"pid\":1,\"tid\":1}" + tail)
            #expect(reading.phases.map(\.name) == ["a"], "tail \(tail)")
        }
    }

    @Test func wallClockMicrosecondsAreTakenAsSuch() throws {
        let wall = TraceTest.realtimeSpawn * 1e6
        let reading = try Self.read("[{\"name\":\"a\",\"ph\":\"X\",\"ts\":\(String(format6: wall + 2000)),\"dur\":100}]")
        #expect(reading.anchor == .wallClock)
        #expect(TraceTest.close(reading.phases[0].start, 0.002, within: 1e-6))
    }

    /// A clock of the program's own (here µs since its main): the earliest event is at the spawn.
    @Test func anotherClockPutsTheEarliestEventAtTheSpawn() throws {
        let reading = try Self.read("[{\"name\":\"b\",\"ph\":\"X\",\"ts\":300,\"dur\":100},{\"name\":\"a\",\"ph\":\"X\",\"ts\":120,\"dur\":50}]")
        #expect(reading.anchor == .earliestEventAtSpawn)
        #expect(reading.phases.map(\.name) == ["a", "b"])
        #expect(TraceTest.close(reading.phases[0].start, 0) && TraceTest.close(reading.phases[1].start, 0.00018))
    }

    /// A `B` that never ended lasts until its enclosing phase does, or until the run ends.
    @Test func beginsNeverEndedLastUntilTheirParentOrTheRun() throws {
        let reading = try Self.read(
            """
            [{"name":"outer","ph":"X","ts":\(Self.ts(0)),"dur":1000,"tid":1},
             {"name":"inside","ph":"B","ts":\(Self.ts(500)),"tid":1},
             {"name":"forever","ph":"B","ts":\(Self.ts(2000)),"tid":1}]
            """)
        #expect(TraceTest.close(try TraceTest.phase("inside", in: reading).end, 0.001))
        #expect(TraceTest.close(try TraceTest.phase("forever", in: reading).end, 0.1))
        TraceTest.expectWellFormed(reading, duration: 0.1)
    }

    /// Threads: the main thread (tid = pid) of the first process is 0 even when another thread's
    /// event is earlier; string ids are allowed; overlaps of rounding size are trimmed.
    @Test func threadsAreNumberedFromTheMainThread() throws {
        let reading = try Self.read(
            """
            [{"name":"worker","ph":"X","ts":\(Self.ts(100)),"dur":10,"pid":40,"tid":41},
             {"name":"main","ph":"X","ts":\(Self.ts(200)),"dur":10,"pid":40,"tid":40},
             {"name":"named","ph":"X","ts":\(Self.ts(300)),"dur":10,"pid":"gpu","tid":"io"},
             {"name":"child","ph":"X","ts":\(Self.ts(205)),"dur":5.5,"pid":40,"tid":40}]
            """)
        #expect(reading.phases.map { "\($0.name)@\($0.thread)" } == ["worker@1", "main@0", "child@0", "named@2"])
        #expect(try TraceTest.phase("child", in: reading).depth == 1)
        TraceTest.expectWellFormed(reading, duration: 0.1)
    }

    // MARK: Errors, each naming the file, line and column, and the event

    @Test func malformedEventsAreErrorsNamingTheEvent() {
        let cases: [(String, String)] = [
            ("3", "an event must be a JSON object"),
            ("{\"name\":\"a\",\"ph\":\"X\",\"dur\":1}", "a 'X' event without 'ts'"),
            ("{\"name\":\"a\",\"ph\":\"X\",\"ts\":1}", "an 'X' event without 'dur'"),
            ("{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":-1}", "'dur' -1.0 is out of range"),
            ("{\"name\":\"a\",\"ph\":\"X\",\"ts\":1e19,\"dur\":1}", "'ts' 1e+19 is out of range"),
            ("{\"name\":\"a\",\"ph\":\"X\",\"ts\":\"1\",\"dur\":1}", "'ts' must be a number of microseconds"),
            ("{\"ph\":\"B\",\"ts\":1}", "a 'B' event without a name"),
            ("{\"name\":\"\",\"ph\":\"i\",\"ts\":1}", "a 'i' event without a name"),
            ("{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"tid\":1.5}", "'tid' must be a whole number or a string"),
            ("{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":[]}", "'pid' must be a whole number or a string")
        ]
        for (event, reason) in cases {
            let text = "[{\"ph\":\"M\",\"name\":\"thread_name\"},\n \(event)]"
            let error = TraceTest.error { () throws(TraceError) in try Self.read(text) }
            #expect(error?.source == "trace.json" && error?.event == 2 && error?.line == 2, "\(error?.description ?? "") for \(event)")
            #expect(error?.reason.contains(reason) == true, "\(error?.description ?? "") for \(event)")
        }
    }

    @Test func invalidJSONIsAnErrorWithLineAndColumn() {
        let cases: [(String, Int, Int, String)] = [
            ("{\"traceEvents\": [\n  {\"ph\": \"X\",, }]}", 2, 14, "unexpected ',', expected a key"),
            ("[\n{\"ph\":\"M\"}\n{\"ph\":\"M\"}]", 3, 1, "unexpected '{', expected ',' or ']'"),
            ("{\"otherData\": {}}", 1, 1, "no 'traceEvents' array"),
            ("{\"traceEvents\": {}}", 1, 1, "no 'traceEvents' array"),
            ("42", 1, 1, "a Chrome trace is an object with 'traceEvents', or an array of events"),
            ("[{\"args\":" + String(repeating: "{\"a\":", count: 70), 1, 320, "nested more than 64 deep"),
            ("{\"traceEvents\": []", 1, 19, "unexpected end of input, expected ',' or '}'"),
            ("[{\"ph\":\"M\"}] x", 1, 14, "unexpected 'x', expected the end of the value")
        ]
        for (text, line, column, reason) in cases {
            let error = TraceTest.error { () throws(TraceError) in try Self.read(text) }
            #expect(error?.line == line && error?.column == column, "\(error?.description ?? "") for \(text)")
            #expect(error?.reason.contains(reason) == true, "\(error?.description ?? "") for \(text)")
        }
    }

    /// Escapes are decoded; a lone surrogate becomes U+FFFD rather than an error.
    @Test func namesAreDecoded() throws {
        let reading = try Self.read("[{\"ph\":\"X\",\"name\":\"\\ud800\\u0041 \\ud83d\\ude80 \\\"\\t\\/\",\"ts\":\(Self.ts(1)),\"dur\":1}]")
        #expect(reading.phases.map(\.name) == ["\u{FFFD}A \u{1F680} \"\t/"])
    }

    @Test func anEndWithNoBeginIsAnError() {
        let error = TraceTest.error { () throws(TraceError) in
            try Self.read("[{\"name\":\"a\",\"ph\":\"B\",\"ts\":5,\"tid\":1},{\"ph\":\"E\",\"ts\":6,\"tid\":1},{\"ph\":\"E\",\"ts\":7,\"tid\":1}]")
        }
        #expect(
            error?.event == 3 && error?.reason.hasPrefix("an 'E' event with no 'B' event open on its thread (pid none, tid 1)") == true,
            "\(error?.description ?? "")")
    }

    @Test func overlappingEventsOnOneThreadAreAnError() {
        let error = TraceTest.error { () throws(TraceError) in
            try Self.read("[{\"name\":\"a\",\"ph\":\"X\",\"ts\":0,\"dur\":10},\n{\"name\":\"b\",\"ph\":\"X\",\"ts\":5,\"dur\":10}]")
        }
        #expect(error?.event == 2 && error?.line == 2 && error?.column == 1)
        #expect(error?.reason == "'b' overlaps 'a' (event 1) on its thread without nesting in it: events of one thread must nest")
    }

    @Test func eventsSpanningMoreThanTheRunAreRefused() {
        // Nanoseconds written where the format wants microseconds.
        let error = TraceTest.error { () throws(TraceError) in
            try Self.read("[{\"name\":\"a\",\"ph\":\"X\",\"ts\":0,\"dur\":2000000000}]", seconds: 1)
        }
        #expect(
            error?.description
                == "trace.json: the events span 2000.0 s, longer than the run (1.0 s): the file holds events of another run, or its times are not in microseconds (the format's unit)"
        )
    }

    @Test func moreEventsThanTheLimitsAreRefused() {
        let phase = "{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":0},"
        let tooMany = TraceTest.error { () throws(TraceError) in
            try Self.read("[" + String(repeating: phase, count: TraceLimits.phases) + "{\"name\":\"a\",\"ph\":\"B\",\"ts\":1}]")
        }
        #expect(tooMany?.event == TraceLimits.phases + 1 && tooMany?.reason == "more than 100000 phases in one run (the limit)")
        let mark = "{\"name\":\"m\",\"ph\":\"I\",\"ts\":1},"
        let marks = TraceTest.error { () throws(TraceError) in try Self.read("[" + String(repeating: mark, count: TraceLimits.marks + 1)) }
        #expect(marks?.event == TraceLimits.marks + 1 && marks?.reason == "more than 100000 marks in one run (the limit)")
        let end = "{\"ph\":\"E\",\"ts\":1},"
        let ends = TraceTest.error { () throws(TraceError) in try Self.read("[" + String(repeating: end, count: TraceLimits.phases + 1)) }
        #expect(ends?.event == TraceLimits.phases + 1 && ends?.reason.hasPrefix("more than 100000 'E' events") == true)
    }

    @Test func phasesNestedDeeperThanTheLimitAreRefused() throws {
        func nested(_ levels: Int) -> String {
            "[" + (0..<levels).map { "{\"name\":\"p\($0)\",\"ph\":\"X\",\"ts\":\($0),\"dur\":\(1000 - 2 * $0)}" }.joined(separator: ",") + "]"
        }
        #expect(try Self.read(nested(TraceLimits.depth)).phases.map(\.depth).max() == TraceLimits.depth - 1)
        let error = TraceTest.error { () throws(TraceError) in try Self.read(nested(TraceLimits.depth + 1)) }
        #expect(error?.event == TraceLimits.depth + 1 && error?.reason == "phases nested more than 256 deep (the limit)")
    }
}

extension String {
    /// `value` with six decimals (µs with ns), without Foundation.
    init(format6 value: Double) {
        let whole = value.rounded(.down)
        let fraction = Int(((value - whole) * 1e6).rounded())
        let digits = String(fraction)
        self = String(Int64(whole)) + "." + String(repeating: "0", count: 6 - digits.count) + digits
    }
}

import Testing
import LaunchCore
@testable import LaunchTraces

/// git-trace2 from recorded event lines (the fields git 2.39 writes, `file` and `line` left out).
@Suite struct Trace2ReaderTests {
    static let sid = "20270115T080000.000000Z-H0a7c9cdf-P00000100"
    static let childSid = sid + "/20270115T080000.004000Z-H0a7c9cdf-P00001234"

    /// `2027-01-15T08:00:SS.ffffffZ` for `micros` after the spawn's wall-clock time.
    static func time(_ micros: Int) -> String {
        let seconds = micros / 1_000_000, fraction = String(micros % 1_000_000)
        return "2027-01-15T08:00:\(seconds < 10 ? "0" : "")\(seconds).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)Z"
    }

    /// One event line.
    static func event(_ name: String, _ micros: Int, sid: String = sid, thread: String = "main", _ fields: String = "") -> String {
        "{\"event\":\"\(name)\",\"sid\":\"\(sid)\",\"thread\":\"\(thread)\",\"time\":\"\(time(micros))\"\(fields.isEmpty ? "" : "," + fields)}"
    }

    static func enter(_ micros: Int, _ nesting: Int, _ category: String, _ label: String, sid: String = sid, thread: String = "main") -> String {
        event(
            "region_enter", micros, sid: sid, thread: thread,
            "\"repo\":1,\"nesting\":\(nesting),\"category\":\"\(category)\",\"label\":\"\(label)\",\"msg\":\".git/index\"")
    }

    static func leave(_ micros: Int, _ nesting: Int, _ category: String, _ label: String, sid: String = sid, thread: String = "main") -> String {
        event(
            "region_leave", micros, sid: sid, thread: thread,
            "\"repo\":1,\"t_rel\":0.000100,\"nesting\":\(nesting),\"category\":\"\(category)\",\"label\":\"\(label)\"")
    }

    static func read(_ lines: [String], seconds: Double = 0.01, realtime: Double = TraceTest.realtimeSpawn) throws(TraceError) -> TraceReading {
        try Trace2Reader.read(
            Array(lines.joined(separator: "\n").utf8), file: "/tmp/run/trace2.json",
            clock: TraceTest.clock(seconds: seconds, realtime: realtime))
    }

    static let status = [
        event("version", 200, "\"evt\":\"3\",\"exe\":\"2.39.5\""),
        event("start", 210, "\"t_abs\":0.001071,\"argv\":[\"git\",\"status\"]"),
        enter(1000, 1, "index", "do_read_index"),
        enter(1100, 2, "cache_tree", "read"),
        leave(1200, 2, "cache_tree", "read"),
        event("data", 1300, "\"t_abs\":0.001657,\"nesting\":2,\"category\":\"index\",\"key\":\"read/version\",\"value\":\"2\""),
        leave(1500, 1, "index", "do_read_index"),
        enter(1600, 1, "index", "preload"),
        enter(1700, 1, "index", "preload", thread: "th01:preload_thread"),
        leave(1900, 1, "index", "preload", thread: "th01:preload_thread"),
        leave(2000, 1, "index", "preload"),
        enter(2100, 1, "status", "print"),
        leave(2400, 1, "status", "print"),
        event("data_json", 2450, "\"value\":{\"traverse_trees_count\":1,\"nested\":[[1,2],{\"a\":null}]}"),
        event("exit", 2500, "\"t_abs\":0.0025,\"code\":0"),
        event("atexit", 2520, "\"t_abs\":0.00252,\"code\":0")
    ]

    @Test func regionsBecomeNestedPhasesPerThreadOnTheWallClock() throws {
        let reading = try Self.read(Self.status)
        #expect(reading.anchor == .wallClock)
        let expected: [(String, Double, Double, Int, Int, String?)] = [  // name, start, duration, thread, depth, parent
            ("do_read_index (index)", 0.0010, 0.0005, 0, 0, nil),
            ("read (cache_tree)", 0.0011, 0.0001, 0, 1, "do_read_index (index)"),
            ("preload (index)", 0.0016, 0.0004, 0, 0, nil),
            ("preload (index)", 0.0017, 0.0002, 1, 0, nil),
            ("print (status)", 0.0021, 0.0003, 0, 0, nil)
        ]
        #expect(reading.phases.map(\.name) == expected.map(\.0))
        for (phase, want) in zip(reading.phases, expected) {
            #expect(TraceTest.close(phase.start, want.1, within: 1e-7) && TraceTest.close(phase.duration, want.2, within: 1e-7), "\(phase)")
            #expect(phase.thread == want.3 && phase.depth == want.4)
            #expect(phase.parent.map { reading.phases[$0].name } == want.5)
        }
        TraceTest.expectWellFormed(reading, duration: 0.01)
    }

    /// The first process's main thread is thread 0 even when a worker's region comes first.
    @Test func theMainThreadIsThreadZero() throws {
        let reading = try Self.read([
            Self.event("version", 100),
            Self.enter(200, 1, "w", "work", thread: "th02:worker"),
            Self.enter(300, 1, "m", "main work"),
            Self.leave(400, 1, "m", "main work"),
            Self.leave(500, 1, "w", "work", thread: "th02:worker")
        ])
        #expect(reading.phases.map { "\($0.name)@\($0.thread)" } == ["work (w)@1", "main work (m)@0"])
    }

    /// A child git process: its lifetime (as its parent saw it) is a phase of its own thread, with
    /// the child's regions inside; a child that is not git is its lifetime only.
    @Test func childProcessesAreThreadsWithTheirRegionsInside() throws {
        let reading = try Self.read([
            Self.event("version", 100),
            Self.event("child_start", 3000, "\"child_id\":0,\"child_class\":\"?\",\"use_shell\":false,\"argv\":[\"git\",\"status\"]"),
            Self.event("version", 3500, sid: Self.childSid, "\"evt\":\"3\",\"exe\":\"2.39.5\""),
            Self.enter(4000, 1, "index", "refresh", sid: Self.childSid),
            Self.leave(5000, 1, "index", "refresh", sid: Self.childSid),
            Self.event("exit", 5500, sid: Self.childSid, "\"code\":0"),
            Self.event("child_exit", 6000, "\"child_id\":0,\"pid\":4660,\"code\":0,\"t_rel\":0.003"),
            Self.event("child_start", 6500, "\"child_id\":1,\"child_class\":\"hook\",\"hook_name\":\"post-checkout\",\"argv\":[\"sh\",\"-c\",\"exit 0\"]"),
            Self.event("child_exit", 7000, "\"child_id\":1,\"pid\":4700,\"code\":0"),
            Self.event("child_start", 7100, "\"child_id\":2,\"argv\":[\"no-such-helper\"]"),
            Self.event("child_exit", 7200, "\"child_id\":2,\"pid\":-1,\"code\":-1")
        ])
        let child = try TraceTest.phase("child: git status", in: reading)
        #expect(child.thread == 1 && child.depth == 0)
        #expect(TraceTest.close(child.start, 0.003, within: 1e-7) && TraceTest.close(child.duration, 0.003, within: 1e-7))
        let region = try TraceTest.phase("refresh (index)", in: reading)
        #expect(region.thread == 1 && region.depth == 1 && region.parent == TraceTest.index("child: git status", in: reading))
        #expect(try TraceTest.phase("child: sh -c exit 0", in: reading).thread == 2)
        #expect(try TraceTest.phase("child: no-such-helper", in: reading).thread == 3)
        TraceTest.expectWellFormed(reading, duration: 0.01)
    }

    @Test func aLongCommandLineIsCutInTheChildsName() throws {
        let words = (0..<100).map { "\"argument-\($0)\"" }.joined(separator: ",")
        let reading = try Self.read([Self.event("child_start", 100, "\"child_id\":0,\"argv\":[\(words)]")])
        let name = try #require(reading.phases.first?.name)
        #expect(name.hasPrefix("child: argument-0 argument-1 ") && name.hasSuffix("…") && name.count == "child: ".count + 121)
    }

    /// A process that died in a region (or was stopped when ready): the region ends at its exit
    /// event, else with the run; a child that never exited also ends with the run.
    @Test func regionsLeftOpenEndWithTheirProcessOrTheRun() throws {
        let died = try Self.read([Self.enter(1000, 1, "a", "open"), Self.enter(1500, 2, "a", "inner"), Self.event("signal", 3000, "\"signo\":9")])
        #expect(died.phases.map(\.duration).map { ($0 * 1e6).rounded() } == [2000, 1500])
        let stopped = try Self.read(
            [
                Self.enter(1000, 1, "a", "open"),
                Self.event("child_start", 1200, "\"child_id\":0,\"argv\":[\"less\"]")
            ], seconds: 0.05)
        #expect(stopped.phases.map { ($0.end * 1e6).rounded() } == [50000, 50000])
    }

    /// Times on another wall clock (it was stepped, or the file is from another machine) are placed
    /// with the earliest event at the spawn.
    @Test func timesOffTheWallClockAreAnchoredAtTheEarliestEvent() throws {
        let reading = try Self.read(Self.status, realtime: TraceTest.realtimeSpawn + 100)
        #expect(reading.anchor == .earliestEventAtSpawn)
        #expect(TraceTest.close(reading.phases[0].start, 0.0008, within: 1e-7))  // 1000 µs − the version event at 200
    }

    @Test func anEmptyFileIsAnErrorAndAFileWithoutRegionsHasNoPhases() throws {
        let error = TraceTest.error { () throws(TraceError) in try Self.read([]) }
        #expect(error?.description == "/tmp/run/trace2.json: no Trace2 events: the file is empty (did the program run git?)")
        let version = try Self.read([Self.event("version", 100), Self.event("exit", 200, "\"code\":0")])
        #expect(version.phases.isEmpty)
    }

    // MARK: Errors, each naming the file, the line and the column

    @Test func malformedLinesAreErrorsWithLineAndColumn() {
        let good = Self.event("version", 100)
        let cases: [(String, Int, String)] = [  // line 2, column, reason
            ("{\"event\":\"x\",}", 14, "a trailing comma before '}'"),
            ("[1]", 1, "a Trace2 line must be a JSON object"),
            ("{\"sid\":\"s\"}", 1, "a Trace2 line needs a string 'event'"),
            ("{\"event\":3}", 10, "unexpected '3', expected a string"),
            ("{\"event\":\"version\"} x", 21, "unexpected 'x', expected the end of the value"),
            ("{\"event\":\"region_enter\",\"nesting\":1.5}", 35, "'nesting' must be a whole number from 1 to 1000000, not 1.5"),
            ("{\"event\":\"a\",\"v\":\"\u{1}\"}", 19, "a control character (0x1) inside a string"),
            ("{\"event\":\"a\",\"v\":\"\\x\"}", 19, "an unknown escape '\\x' in a string"),
            ("{\"event\":\"a\",\"v\":01}", 19, "unexpected '1', expected ',' or '}'"),
            ("{\"event\":\"a\",\"v\":1e999}", 18, "the number 1e999 is out of range"),
            ("{\"event\":\"a\",\"v\":\"open", 18, "a string that never ends"),
            ("{\"event\":\"a\",\"v\":" + String(repeating: "[", count: 70), 81, "nested more than 64 deep"),
            ("{\"event\":\"a\",\"v\":1" + String(repeating: "0", count: 100) + "}", 18, "a number of 101 characters"),
            (Self.event("region_enter", 300), 1, "region_enter without 'nesting'"),
            ("{\"event\":\"region_enter\",\"nesting\":1}", 1, "a region_enter event needs 'sid', 'thread' and 'time'"),
            (Self.event("region_enter", 300).replacingTime(with: "2027-02-30T00:00:00Z"), 1, "'time' must be a UTC time"),
            (Self.event("child_start", 300), 1, "child_start without 'child_id'")
        ]
        for (text, column, reason) in cases {
            let error = TraceTest.error { () throws(TraceError) in try Self.read([good, text]) }
            #expect(error?.source == "/tmp/run/trace2.json" && error?.line == 2, "\(text): \(error?.description ?? "")")
            #expect(error?.column == column, "\(text): \(error?.description ?? "")")
            #expect(error?.reason.contains(reason) == true, "\(text): \(error?.description ?? "")")
        }
    }

    @Test func unbalancedRegionsAreErrors() {
        let cases: [([String], Int, String)] = [
            ([Self.leave(100, 1, "a", "b")], 1, "region_leave of b (a), but no region is open on thread main of process \(Self.sid)"),
            ([Self.enter(100, 1, "a", "b"), Self.leave(200, 1, "a", "c")], 2, "but b (a) at nesting 1 is the region open"),
            ([Self.enter(100, 1, "a", "b"), Self.leave(200, 2, "a", "b")], 2, "region_leave of b (a) at nesting 2"),
            ([Self.enter(100, 2, "a", "b")], 1, "at nesting 2, but 0 regions are open"),
            ([Self.enter(100, 1, "a", "b"), Self.leave(50, 1, "a", "b")], 2, "earlier than its region_enter"),
            ([Self.event("child_exit", 100, "\"child_id\":4")], 1, "child_exit of child 4 of process \(Self.sid), which never started"),
            (
                [Self.event("child_start", 100, "\"child_id\":4,\"argv\":[]"), Self.event("child_start", 200, "\"child_id\":4,\"argv\":[]")], 2,
                "which had started already"
            )
        ]
        for (lines, line, reason) in cases {
            let error = TraceTest.error { () throws(TraceError) in try Self.read(lines) }
            #expect(error?.line == line && error?.reason.contains(reason) == true, "\(error?.description ?? "")")
        }
    }

    @Test func eventsSpanningMoreThanTheRunAreRefused() {
        let error = TraceTest.error { () throws(TraceError) in
            try Self.read([Self.enter(0, 1, "a", "b"), Self.leave(2_000_000, 1, "a", "b")], seconds: 1, realtime: 0)
        }
        #expect(error?.reason == "the events span 2.0 s, longer than the run (1.0 s): the file holds events of another run")
    }

    @Test func regionsNestedDeeperThanTheLimitAreRefused() throws {
        let lines = (1...TraceLimits.depth + 1).map { Self.enter($0, $0, "c", "r\($0)") }
        let deepest = try Self.read(Array(lines.prefix(TraceLimits.depth)))
        #expect(deepest.phases.count == TraceLimits.depth)
        let error = TraceTest.error { () throws(TraceError) in try Self.read(lines) }
        #expect(error?.line == TraceLimits.depth + 1 && error?.reason == "phases nested more than 256 deep (the limit)")
    }

    @Test func utcTimesAreReadExactlyAndCheckedFieldByField() {
        #expect(UTCTimestamp.microseconds("1970-01-01T00:00:00Z") == 0)
        #expect(UTCTimestamp.microseconds("2027-01-15T08:00:00.000001Z") == 1_800_000_000_000_001)
        #expect(UTCTimestamp.microseconds("2024-02-29T23:59:59.5Z") == 1_709_251_199_500_000)
        #expect(UTCTimestamp.microseconds("2024-02-29T23:59:59.123456789Z") == 1_709_251_199_123_456)
        for bad in [
            "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "1969-12-31T23:59:59Z",
            "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00", "2024-01-01 00:00:00Z", "+024-01-01T00:00:00Z"
        ] {
            #expect(UTCTimestamp.microseconds(bad) == nil, "\(bad)")
        }
    }
}

private extension String {
    /// The line with its `time` value replaced.
    func replacingTime(with time: String) -> String {
        guard let start = firstRange(of: "\"time\":\"") else { return self }
        let valueStart = start.upperBound
        let valueEnd = self[valueStart...].firstIndex(of: "\"")!
        return String(self[..<valueStart]) + time + String(self[valueEnd...])
    }
}

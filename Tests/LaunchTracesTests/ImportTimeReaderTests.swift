import Testing
import LaunchCore
@testable import LaunchTraces

/// python-importtime from recorded interpreter output (CPython 3.11, `-X importtime`).
@Suite struct ImportTimeReaderTests {
    static let recorded = """
        import time: self [us] | cumulative | imported package
        import time:       149 |        149 |   _io
        import time:        33 |         33 |   marshal
        import time:       388 |        388 |   posix
        import time:       319 |        888 | _frozen_importlib_external
        a line the program wrote
        import time:       434 |        434 |       _json
        import time:       853 |       1287 |     json.scanner
        import time:      1024 |       2311 |   json.decoder
        import time:       739 |        739 |   json.encoder
        import time:     15823 |      18872 | json
        Traceback (most recent call last):
        """

    static func read(_ text: String, seconds: Double = 1) throws(TraceError) -> TraceReading {
        try ImportTimeReader.read(stderr: Array(text.utf8), clock: TraceTest.clock(seconds: seconds))
    }

    @Test func importsBecomeNestedPhasesLaidEndToEndFromTheSpawn() throws {
        let reading = try Self.read(Self.recorded)
        #expect(reading.anchor == .laidOutFromSpawn)
        #expect(reading.marks.isEmpty)
        // In start order, parents first; children laid end to end from their parent's start.
        let expected: [(String, Int, Int, Int, String?)] = [  // name, start µs, duration µs, depth, parent
            ("import _frozen_importlib_external", 0, 888, 0, nil),
            ("import _io", 0, 149, 1, "import _frozen_importlib_external"),
            ("import marshal", 149, 33, 1, "import _frozen_importlib_external"),
            ("import posix", 182, 388, 1, "import _frozen_importlib_external"),
            ("import json", 888, 18872, 0, nil),
            ("import json.decoder", 888, 2311, 1, "import json"),
            ("import json.scanner", 888, 1287, 2, "import json.decoder"),
            ("import _json", 888, 434, 3, "import json.scanner"),
            ("import json.encoder", 3199, 739, 1, "import json")
        ]
        #expect(reading.phases.map(\.name) == expected.map(\.0))
        for (phase, want) in zip(reading.phases, expected) {
            #expect(TraceTest.close(phase.start, Double(want.1) / 1e6), "\(phase.name) start \(phase.start)")
            #expect(TraceTest.close(phase.duration, Double(want.2) / 1e6), "\(phase.name) duration \(phase.duration)")
            #expect(phase.depth == want.3 && phase.thread == 0)
            #expect(phase.parent.map { reading.phases[$0].name } == want.4, "\(phase.name)'s parent")
        }
        TraceTest.expectWellFormed(reading, duration: 1)
    }

    @Test func theProgramsOwnLinesAreKeptAndTheTracesRemoved() throws {
        let reading = try Self.read(Self.recorded)
        #expect(String(decoding: reading.stderr, as: UTF8.self) == "a line the program wrote\nTraceback (most recent call last):")
    }

    /// The interpreter rounds each time up to a µs: children may add up to more than their parent's
    /// cumulative time. The parent then lasts their sum, so they fit in it.
    @Test func childrenRoundedUpStillFitInTheirParent() throws {
        let reading = try Self.read(
            """
            import time:       500 |        500 |   a
            import time:       500 |        500 |   b
            import time:         0 |        999 | parent
            """)
        let parent = try TraceTest.phase("import parent", in: reading)
        #expect(TraceTest.close(parent.duration, 0.001))
        #expect(TraceTest.close(try TraceTest.phase("import b", in: reading).end, parent.end))
        TraceTest.expectWellFormed(reading, duration: 1)
    }

    /// Part of a line the program wrote just before an import finished stays in its output; a line
    /// that merely mentions "import time:" is the program's.
    @Test func aMarkerInsideALineIsTheInterpretersOnlyIfTheRestParses() throws {
        let reading = try Self.read("progress: 50%import time:        10 |         10 | zlib\r\ndone\nTotal import time: 3 s\n")
        #expect(reading.phases.map(\.name) == ["import zlib"])
        #expect(String(decoding: reading.stderr, as: UTF8.self) == "progress: 50%done\nTotal import time: 3 s\n")
    }

    /// A process that ended in the middle of an import: the imports it had finished inside it are
    /// kept at the top level.
    @Test func importsWhoseParentNeverFinishedAreKeptAtTheTopLevel() throws {
        let reading = try Self.read("import time: 5 | 5 | early\nimport time: 10 | 10 |     deep\nimport time: 20 | 30 |   inner\n")
        #expect(reading.phases.map(\.name) == ["import early", "import inner", "import deep"])
        #expect(reading.phases.map(\.depth) == [0, 0, 1])
        #expect(TraceTest.close(try TraceTest.phase("import inner", in: reading).start, 5e-6))
    }

    // MARK: Errors, each naming the standard error and the line

    @Test func aMalformedLineIsAnErrorWithItsLine() {
        let cases: [(String, Int, String)] = [
            ("import time: self [us] | cumulative | imported package\nimport time: abc | 12 | x", 2, "the self time 'abc' is not a whole number"),
            ("import time: 1 | -4 | x", 1, "the cumulative time '-4' is not a whole number of microseconds from 0"),
            ("import time: 1 | 99999999999999999999 | x", 1, "the cumulative time '99999999999999999999'"),
            ("import time: 1 | 86400000001 | x", 1, "from 0 to 86400000000"),
            ("import time: 1 | 2", 1, "expected 'import time: <self µs> | <cumulative µs> | <module>'"),
            ("import time: 1 | 2 |x", 1, "expected a space after the second '|'"),
            ("import time: 1 | 2 |    x", 1, "an indentation of 3 spaces"),
            ("import time: 1 | 2 |   ", 1, "an import without a module name")
        ]
        for (text, line, reason) in cases {
            let error = TraceTest.error { () throws(TraceError) in try Self.read(text) }
            #expect(error?.source == "stderr of the program" && error?.line == line && error?.column == 1, "\(text)")
            #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "") for \(text)")
            #expect(error?.description.hasPrefix("stderr of the program:\(line):1: ") == true)
        }
    }

    /// Negative self times, and self times past the cumulative one, come from imports in several
    /// threads: nesting and times are then unreliable, and refused rather than shown.
    @Test func selfTimesThatOnlyThreadsProduceAreRefused() {
        for text in ["import time: -1243 | 41262 | email.parser", "import time: 50 | 40 | x"] {
            let error = TraceTest.error { () throws(TraceError) in try Self.read(text) }
            #expect(error?.reason.contains("several threads") == true, "\(text)")
        }
    }

    @Test func aMissingLevelIsAnError() {
        let error = TraceTest.error { () throws(TraceError) in
            try Self.read("import time: 1 | 1 |     deep\nimport time: 1 | 5 | top")
        }
        #expect(error?.line == 2)
        #expect(error?.reason.contains("with none at level 1 between") == true)
    }

    @Test func aSecondInterpretersHeaderIsAnError() {
        let header = "import time: self [us] | cumulative | imported package\n"
        let error = TraceTest.error { () throws(TraceError) in try Self.read(header + "import time: 1 | 1 | a\n" + header) }
        #expect(error?.line == 3)
        #expect(error?.reason.contains("a second Python interpreter") == true)
    }

    @Test func noImportTimesIsAnErrorNotAnEmptyTrace() {
        for text in ["", "hello\n", "import time: self [us] | cumulative | imported package\n"] {
            let error = TraceTest.error { () throws(TraceError) in try Self.read(text) }
            #expect(error?.description.hasPrefix("stderr of the program: no import times") == true)
        }
    }

    @Test func importsLongerThanTheRunAreRefused() {
        let error = TraceTest.error { () throws(TraceError) in
            try Self.read("import time: 1500000 | 1500000 | a\nimport time: 600000 | 600000 | b\n", seconds: 2)
        }
        #expect(error?.reason.hasPrefix("the import times add up to 2.1 s, longer than the run (2.0 s)") == true)
    }

    @Test func aRunWithMoreImportsThanThePhaseLimitIsRefused() {
        let text = String(repeating: "import time: 1 | 1 | m\n", count: TraceLimits.phases + 1)
        let error = TraceTest.error { () throws(TraceError) in try Self.read(text) }
        #expect(error?.line == TraceLimits.phases + 1)
        #expect(error?.reason.contains("more than 100000 imports") == true)
    }

    @Test func importsNestedDeeperThanTheLimitAreRefused() throws {
        func nested(_ levels: Int) -> String {
            (0..<levels).reversed().map { "import time: 1 | \(levels - $0) | " + String(repeating: "  ", count: $0) + "m\($0)\n" }.joined()
        }
        let deepest = try Self.read(nested(TraceLimits.depth))
        #expect(deepest.phases.map(\.depth).max() == TraceLimits.depth - 1)
        let error = TraceTest.error { () throws(TraceError) in try Self.read(nested(TraceLimits.depth + 1)) }
        #expect(error?.line == TraceLimits.depth + 1)
        #expect(error?.reason.contains("nested more than 256 deep") == true)
    }
}

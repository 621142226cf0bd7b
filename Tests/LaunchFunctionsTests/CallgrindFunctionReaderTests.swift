import Foundation
import LaunchCore
import Testing

@testable import LaunchFunctions

/// The reader on a real dump (Fixtures/tiny.callgrind: Fixtures/tiny.c under Valgrind 3.19's
/// Callgrind with launchprof's options) and on hostile ones.
struct CallgrindFunctionReaderTests {
    static var fixture: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Fixtures/tiny.callgrind"
    }

    static func read() throws -> CallgrindProfile {
        try CallgrindFunctionReader.read(path: fixture, limit: 1 << 20)
    }

    static func costs(_ profile: CallgrindProfile, _ range: Range<Int>, _ name: String) -> CallgrindProfile.Costs? {
        let costs = profile.costs(of: range).costs
        return profile.functions.indices.first { profile.functions[$0].name == name }.flatMap { costs[$0] }
    }

    @Test func realDumpHasEveryPartAndItsLabel() throws {
        let profile = try Self.read()
        #expect(
            profile.parts.map(\.label) == ["launchprof main", "launchprof begin 0 0", "launchprof begin 0 1", "launchprof end 0 1", "launchprof end 0 0", nil])
        #expect(profile.parts.map(\.instructions) == [123_431, 13, 10_542, 3_521, 14, 1_262])
    }

    @Test func realDumpCountsSelfInclusiveAndCalls() throws {
        let profile = try Self.read()
        // Phase 0 (outer) is parts 2…4: outer() once, work() three times (twice from outer, once from main).
        let outer = try #require(Self.costs(profile, 2..<5, "outer"))
        let work = try #require(Self.costs(profile, 2..<5, "work"))
        #expect(outer.calls == 1)
        #expect(work.calls == 3)
        #expect(outer.inclusiveInstructions == outer.selfInstructions + 7_006 + 3_506)
        #expect(work.selfInstructions == 10_512 + 3_506)
        // Phase 1 (the nested one) is part 3 alone: work() once, and within its parent's counts.
        let inner = try #require(Self.costs(profile, 3..<4, "work"))
        #expect(inner.calls == 1)
        #expect(inner.selfInstructions <= work.selfInstructions)
        #expect(profile.functions.first { $0.name == "work" }?.object.hasSuffix("/tiny") == true)
    }

    @Test func nestedPhasesAreWithinTheirParents() throws {
        let profile = try Self.read()
        let dumps = [
            PhaseDumps(begin: "launchprof begin 0 0", end: "launchprof end 0 0"), PhaseDumps(begin: "launchprof begin 0 1", end: "launchprof end 0 1")
        ]
        let run = RunFunctionProfile(profile, dumps: dumps, programObject: nil)
        let parent = try #require(run.phases[0]), child = try #require(run.phases[1])
        let parentSelf = parent.reduce(0) { $0 + $1.selfInstructions }, childSelf = child.reduce(0) { $0 + $1.selfInstructions }
        #expect(parentSelf == 10_542 + 3_521 + 14)
        #expect(childSelf == 3_521)
        for entry in child {
            let inParent = try #require(parent.first { $0.name == entry.name && $0.object == entry.object })
            #expect(inParent.selfInstructions >= entry.selfInstructions)
            #expect(inParent.calls >= entry.calls)
        }
    }

    /// Valgrind names every frame below `main` `(below main)`: in a C program, the program's `_start`
    /// and libc's `__libc_start_call_main`. They are two functions (two objects), one row each; the
    /// same name defined twice in one object is one function, one row.
    @Test func belowMainIsOneFunctionPerObject() throws {
        let profile = try Self.read()
        let belowMain = profile.functions.filter { $0.name == "(below main)" }
        #expect(belowMain.count == 2)
        #expect(belowMain.contains { $0.object.hasSuffix("/tiny") } && belowMain.contains { $0.object.hasSuffix("/libc.so.6") })
        let run = RunFunctionProfile(profile, dumps: [PhaseDumps(begin: nil, end: "launchprof end 0 0")], programObject: nil)
        let rows = try #require(run.phases[0]).map { [$0.name, $0.object] }
        #expect(Set(rows).count == rows.count)

        let twice = try Self.parse(
            """
            events: Ir
            summary: 5
            ob=(1) /lib/libc.so.6
            fn=(1) (below main)
            0 2
            fn=(2) (below main)
            0 3

            """)
        #expect(twice.functions == [RunFunctionProfile.GraphFunction(name: "(below main)", object: "/lib/libc.so.6")])
        #expect(twice.costs(of: 0..<1).costs[0]?.selfInstructions == 5)
    }

    @Test func missingDumpsGiveNoProfile() throws {
        let run = RunFunctionProfile(try Self.read(), dumps: [PhaseDumps(begin: "launchprof begin 9 9", end: "launchprof end 9 9"), nil], programObject: nil)
        #expect(run.phases == [nil, nil])
    }

    static func parse(_ text: String) throws(FunctionError) -> CallgrindProfile {
        try CallgrindFunctionReader.parse(Array(text.utf8), file: "x.out")
    }

    static let small = """
        events: Ir
        part: 1
        desc: Trigger: Client Request: launchprof main
        summary: 30
        ob=(1) /bin/app
        fn=(1) f
        0 10
        cfn=(2) g'2
        calls=2 0
        0 20
        fn=(2)
        0 20

        """

    @Test func compressedNamesAndRecursionLevels() throws {
        let profile = try Self.parse(Self.small)
        #expect(profile.functions.map(\.name) == ["f", "g"])
        let costs = profile.costs(of: 0..<1).costs
        #expect(costs[0] == CallgrindProfile.Costs(selfInstructions: 10, calleeInstructions: 20, calls: 0))
        #expect(costs[1] == CallgrindProfile.Costs(selfInstructions: 20, calleeInstructions: 0, calls: 2))
    }

    @Test func truncatedFileIsRefused() throws {
        // Cut inside the last cost line (`0 20` to `0 `): the costs no longer add up to the summary.
        let cut = String(Self.small.dropLast(3))
        #expect(
            throws: FunctionError.callgrindFormat(
                file: "x.out", line: 12, reason: "the part's costs add up to 10 instructions, and its summary says 30 (is the file truncated?)")
        ) {
            try Self.parse(cut)
        }
        let real = try [UInt8](FileIO.read(Self.fixture, limit: 1 << 20))
        #expect(throws: FunctionError.self) { try CallgrindFunctionReader.parse(Array(real.prefix(real.count / 2)), file: "half") }
    }

    @Test func badNumbersNameTheLine() {
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 7, reason: "'1x' is not an instruction count")) {
            try Self.parse(Self.small.replacingOccurrences(of: "0 10\n", with: "0 1x\n"))
        }
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 7, reason: "'-5' is not an instruction count")) {
            try Self.parse(Self.small.replacingOccurrences(of: "0 10\n", with: "0 -5\n"))
        }
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 7, reason: "'99999999999999999999' is not an instruction count")) {
            try Self.parse(Self.small.replacingOccurrences(of: "0 10\n", with: "0 99999999999999999999\n"))
        }
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 9, reason: "calls=: 'many 0' is not a count of calls")) {
            try Self.parse(Self.small.replacingOccurrences(of: "calls=2 0", with: "calls=many 0"))
        }
    }

    @Test func hostileNamesAndLines() {
        let huge = String(repeating: "n", count: CallgrindFunctionReader.maximumLineBytes + 1)
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 6, reason: "a line longer than 65536 bytes")) {
            try Self.parse(Self.small.replacingOccurrences(of: "fn=(1) f", with: "fn=(1) " + huge))
        }
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 6, reason: "function (7) is used before it is defined")) {
            try Self.parse(Self.small.replacingOccurrences(of: "fn=(1) f", with: "fn=(7)"))
        }
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 6, reason: "a compressed name is '(number) name', not '(x f'")) {
            try Self.parse(Self.small.replacingOccurrences(of: "fn=(1) f", with: "fn=(x f"))
        }
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 1, reason: "the first event is 'Dr', not Ir")) {
            try Self.parse(Self.small.replacingOccurrences(of: "events: Ir", with: "events: Dr Ir"))
        }
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 1, reason: "no summary: not a Callgrind output file")) {
            try Self.parse("hello: world\n")
        }
        #expect(throws: FunctionError.callgrindFormat(file: "x.out", line: 1, reason: "not a line of the Callgrind format: '<html>'")) {
            try Self.parse("<html>\n")
        }
    }

    @Test func fileLimitIsEnforced() {
        #expect(throws: FunctionError.unreadable(file: Self.fixture, reason: "larger than the 0 MiB a Callgrind file may be")) {
            try CallgrindFunctionReader.read(path: Self.fixture, limit: 1000)
        }
    }
}

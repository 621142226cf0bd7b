import LaunchCore
import Testing

@testable import LaunchFunctions

/// Demangling, the summary of runs into a result's profiles, and function-level diffs.
struct FunctionSummaryTests {
    @Test func swiftAndCPlusPlusNamesAreDemangledInOneBatchEach() {
        let demangler = Demangler.onPath()
        #expect(demangler.swift != nil, "the toolchain's swift demangle is on PATH where launchprof is built")
        let names = demangler.demangle([
            "$s14LaunchPipeline6CanvasV15fillRoundedRect_6radius5paintyAA4RectV_SfAA5PaintVtF", "_ZN3foo3barEv", "png_read_row", "$sSS5countSivg"
        ])
        #expect(names["$s14LaunchPipeline6CanvasV15fillRoundedRect_6radius5paintyAA4RectV_SfAA5PaintVtF"] == "Canvas.fillRoundedRect(_:radius:paint:)")
        #expect(names["$sSS5countSivg"] == "String.count.getter")
        if demangler.cplusplus != nil { #expect(names["_ZN3foo3barEv"] == "foo::bar()") }
        // C names are not sent to a demangler: they stay as they are.
        #expect(names["png_read_row"] == nil)
    }

    @Test func aFailingDemanglerKeepsTheMangledNames() {
        let failing = Demangler(swift: ["/bin/false"], cplusplus: ["/nonexistent/c++filt"])
        #expect(failing.demangle(["$sSS5countSivg", "_ZN3foo3barEv"]).isEmpty)
        // An answer with another number of lines than names is not trusted.
        let short = Demangler(swift: ["/usr/bin/head", "-n", "1"], cplusplus: nil)
        #expect(short.demangle(["$sSS5countSivg", "$sSi1poiyS2i_SitFZ"]).isEmpty)
    }

    static func entry(_ name: String, _ object: String = "/app", self count: Int, inclusive: Int? = nil, calls: Int = 1) -> RunFunctionProfile.Entry {
        .init(name: name, object: object, selfInstructions: count, inclusiveInstructions: inclusive ?? count, calls: calls)
    }

    static func run(index: Int, instructions: Int, drawWork: Int) -> RunRecord {
        var run = RunRecord(
            index: index, total: 1,
            phases: [
                PhaseRecord(name: "drawing", start: 0, duration: 1, depth: 0),
                PhaseRecord(name: "keys", start: 0, duration: 0.5, depth: 1, parent: 0),
                PhaseRecord(name: "keys", start: 0.5, duration: 0.5, depth: 1, parent: 0)
            ])
        run.instructions = instructions
        run.phases[0].instructions = drawWork + 100
        run.phases[1].instructions = 40
        run.phases[2].instructions = 60
        run.functionProfile = RunFunctionProfile(
            phases: [
                [entry("$s3App6CanvasV4fillyyF", self: drawWork), entry("memcpy", "/usr/lib/x86_64-linux-gnu/libc.so.6", self: 100)],
                [entry("$s3App6CanvasV4fillyyF", self: 40)], [entry("$s3App6CanvasV4fillyyF", self: 60)]
            ], programObject: "/app")
        return run
    }

    @Test func theMedianRunIsSummarizedByPathWithOrigins() throws {
        let runs = [
            Self.run(index: 1, instructions: 300, drawWork: 900), Self.run(index: 2, instructions: 200, drawWork: 500),
            Self.run(index: 3, instructions: 100, drawWork: 50)
        ]
        let profiles = try #require(FunctionSummary.profiles(runs, demangler: Demangler(swift: nil, cplusplus: nil)))
        #expect(profiles.run == 2)
        #expect(profiles.phases.map(\.phase) == ["drawing", "drawing/keys"])
        let drawing = try #require(profiles.phase("drawing"))
        #expect(drawing.total == 600)
        #expect(drawing.functions.map(\.selfCost) == [500, 100])
        #expect(drawing.functions.map(\.inProgram) == [true, false])
        // Two phases with one path add up.
        let keys = try #require(profiles.phase("drawing/keys"))
        #expect(keys.total == 100)
        #expect(keys.functions == [FunctionCost(name: "$s3App6CanvasV4fillyyF", inProgram: true, selfCost: 100, inclusiveCost: 100, calls: 2)])
        #expect(FunctionSummary.profiles([RunRecord(total: 1, phases: [])]) == nil)
    }

    @Test func originsByObjectAndName() {
        #expect(FunctionOrigin.isProgram(name: "main", object: "/home/me/app", programObject: "/home/me/app"))
        #expect(!FunctionOrigin.isProgram(name: "memcpy", object: "/usr/lib/x86_64-linux-gnu/libc.so.6", programObject: "/home/me/app"))
        #expect(!FunctionOrigin.isProgram(name: "png_read_row", object: "/opt/libs/libpng16.so.16", programObject: nil))
        #expect(!FunctionOrigin.isProgram(name: "xmlParseChunk", object: "/usr/local/lib/libxml2.so.2", programObject: nil))
        // The Swift runtime and standard library linked into the program (-static-stdlib) are the system's.
        #expect(!FunctionOrigin.isProgram(name: "swift_retain", object: "/home/me/app", programObject: "/home/me/app"))
        #expect(!FunctionOrigin.isProgram(name: "$sSS5countSivg", object: "/home/me/app", programObject: "/home/me/app"))
        #expect(FunctionOrigin.isProgram(name: "$s3App6CanvasV4fillyyF", object: "/home/me/app", programObject: "/home/me/app"))
        #expect(
            FunctionSummary.readableName(Self.entry("0x000000000000aa60", "/usr/lib/x86_64-linux-gnu/libz.so.1", self: 1), [:])
                == "libz.so.1 0x000000000000aa60")
    }

    static func profiles(_ costs: [(String, Int)], count: Int? = nil) -> FunctionProfiles {
        let functions = costs.map { FunctionCost<InstructionUnit>(name: $0.0, inProgram: true, selfCost: $0.1, inclusiveCost: $0.1, calls: 1) }
        return FunctionProfiles(
            run: 1,
            phases: [
                PhaseFunctions(phase: "drawing", total: costs.reduce(0) { $0 + $1.1 }, functions: functions, functionCount: count ?? functions.count)
            ])
    }

    @Test func theDiffNamesTheLargestSelfChangesFirst() throws {
        let before = Self.profiles([("fill", 3_000), ("blur", 1_000), ("same", 500), ("gone", 10)])
        let after = Self.profiles([("fill", 4_180), ("blur", 1_030), ("same", 500), ("new", 20)])
        let changes = try #require(FunctionDiff.changes(phase: "drawing", baseline: before, candidate: after, limit: 3))
        #expect(changes.functions.map(\.name) == ["fill", "blur", "new"])
        #expect(changes.functions[0].selfChange == 1_180)
        #expect(abs((changes.functions[0].selfPercent ?? 0) - 39.333) < 0.01)
        #expect(changes.functions[2].selfPercent == nil)
        #expect(FunctionDiff.changes(phase: "keys", baseline: before, candidate: after, limit: 3) == nil)
    }

    @Test func aFunctionPastAnIncompleteListIsNotCalledNewOrGone() throws {
        // The candidate listed 2 of 3 functions: "rare" may be there, unlisted; no change is stated for it.
        let before = Self.profiles([("fill", 3_000), ("rare", 5)])
        let after = Self.profiles([("fill", 3_100), ("blur", 50)], count: 3)
        let changes = try #require(FunctionDiff.changes(phase: "drawing", baseline: before, candidate: after, limit: 5))
        #expect(changes.functions.map(\.name) == ["fill", "blur"])
        #expect(changes.functions[1].selfPercent == nil && changes.functions[1].baselineListed)
        // A baseline that left functions out (its least listed: 100): a function it did not list had
        // at most 100 there, so the change stated is the least it can be.
        let partial = Self.profiles([("fill", 3_000), ("x", 100)], count: 5)
        let grown = Self.profiles([("fill", 3_000), ("slow", 5_000)])
        let bounded = try #require(FunctionDiff.changes(phase: "drawing", baseline: partial, candidate: grown, limit: 5))
        #expect(bounded.functions.map(\.name) == ["slow", "x"])
        #expect(bounded.functions[0].selfChange == 4_900)
        #expect(!bounded.functions[0].baselineListed && bounded.functions[0].selfPercent == nil)
    }
}

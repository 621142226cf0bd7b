import Foundation
import LaunchCore
import LaunchprofTestSupport
import LaunchFunctions
import LaunchStats
import Testing

@testable import LaunchExport
@testable import LaunchResults

/// Function profiles in the result file, the text report, `report --functions`, and the comparison
/// formats (docs/functions.md).
@Suite struct FunctionExportTests {
    static func cost(_ name: String, _ count: Int, program: Bool = true, calls: Int = 3, inclusive: Int? = nil) -> FunctionCost<InstructionUnit> {
        FunctionCost(name: name, inProgram: program, selfCost: count, inclusiveCost: inclusive ?? count + 10, calls: calls)
    }

    /// The instruction sample with a profile of `drawing` (`fill` taking `fill` instructions) and of `Init`.
    static func profiled(fill: Int = 1_000_000_000) -> LaunchResult {
        var result = SampleResult.instructions()
        result.functions = FunctionProfiles(
            run: 1,
            phases: [
                PhaseFunctions(phase: "Init", total: 890_000_000, functions: [cost("Init.run()", 890_000_000)], functionCount: 1),
                PhaseFunctions(
                    phase: "drawing", total: 1_430_000_000,
                    functions: [
                        cost("Canvas.fillRoundedRect(_:radius:paint:)", fill), cost("AlphaMask.blur(radius:)", 400_000_000),
                        cost("memcpy", 30_000_000, program: false)
                    ], functionCount: 3)
            ])
        return result
    }

    @Test func theResultFileCarriesProfilesCompactlyAndReadsThemBack() throws {
        let result = Self.profiled()
        let bytes = try ResultFile.encode(result)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"schemaVersion\" : \(LaunchResult.currentSchemaVersion)"))
        // One compact array per function.
        #expect(text.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "").contains("[\"memcpy\",\"s\",30000000,30000010,3]"))
        // A phase's total under the unit's name, as results before the one per-phase type had it.
        #expect(text.contains("\"instructions\" : 1430000000") && !text.contains("\"total\" : 1430000000"))
        #expect(try ResultFile.decode(bytes, path: "r.json") == result)
        // The streaming reader keeps them in the header diff and check compare.
        #expect(try ResultTableReader.tabulate(bytes, path: "r.json").header.functions == result.functions)
    }

    /// Both units' per-phase entries as results written before they were one generic type have them.
    @Test func bothUnitsReadTheirCompactForms() throws {
        let instructions = #"{"run":1,"phases":[{"phase":"drawing","instructions":100,"functions":[["f","p",60,90,2]],"functionCount":4}]}"#
        let functions = try JSONDecoder().decode(FunctionProfiles.self, from: Data(instructions.utf8))
        #expect(
            functions.phase("drawing")
                == PhaseFunctions(phase: "drawing", total: 100, functions: [Self.cost("f", 60, calls: 2, inclusive: 90)], functionCount: 4))
        let samples =
            #"{"rate":1000,"event":"cpu-clock","runs":1,"samples":9,"outsidePhases":0,"phases":[{"phase":"drawing","samples":9,"functions":[["f","s",5,7]],"functionCount":1}]}"#
        let sampled = try JSONDecoder().decode(SampleProfiles.self, from: Data(samples.utf8))
        #expect(
            sampled.phase("drawing")
                == PhaseSamples(
                    phase: "drawing", total: 9, functions: [FunctionCost(name: "f", inProgram: false, selfCost: 5, inclusiveCost: 7)], functionCount: 1))
        #expect(sampled.phase("drawing")?.functions.first?.calls == nil, "samples count no calls")
        // Each unit's array has its own length: an instruction entry without its calls is refused.
        let short = instructions.replacingOccurrences(of: "[\"f\",\"p\",60,90,2]", with: "[\"f\",\"p\",60,90]")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FunctionProfiles.self, from: Data(short.utf8)) }
        // A phase total under the other unit's name is refused (its key names the unit).
        let swapped = instructions.replacingOccurrences(of: "\"instructions\":100", with: "\"samples\":100")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FunctionProfiles.self, from: Data(swapped.utf8)) }
    }

    @Test func olderResultsAndBadProfilesAreRead() throws {
        var old = SampleResult.instructions()
        old.schemaVersion = 4
        let decoded = try ResultFile.decode(try ResultFile.encode(old), path: "old.json")
        #expect(decoded.functions == nil)
        var text = String(decoding: try ResultFile.encode(Self.profiled()), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"s\"", with: "\"x\"")
        #expect(throws: ResultError.self) { try ResultFile.decode(Array(text.utf8), path: "bad.json") }
    }

    @Test func theReportListsTheTopFunctionsUnderEachPhase() {
        var options = ReportOptions()
        options.topFunctions = 2
        let text = TextReportExporter(options: options).render(Self.profiled())
        let lines = text.split(separator: "\n").map(String.init)
        let drawing = try! #require(lines.firstIndex { $0.hasPrefix("Instructions for drawing:") })
        #expect(lines[drawing + 1] == "    1.0 G self  69.9%  Canvas.fillRoundedRect(_:radius:paint:)  (1.0 G inclusive, 3 calls)")
        #expect(lines[drawing + 2].hasSuffix("AlphaMask.blur(radius:)  (400.0 M inclusive, 3 calls)"))
        #expect(!text.contains("memcpy"), "only the top 2")
        #expect(!TextReportExporter().render(SampleResult.instructions()).contains(" self "))
    }

    @Test func oneWholePhaseOrTheNamesOfThoseThereAre() throws {
        let table = try FunctionTableReport(phase: "drawing").render(Self.profiled())
        #expect(table.hasPrefix("Functions of drawing: 1,430,000,000 instructions\n"))
        #expect(table.contains("memcpy [system]"))
        #expect(
            ExportError.noFunctionProfile(phase: "drawin", phasesWithProfiles: ["Init", "drawing"]).description
                == "no phase 'drawin' has a function profile; the phases with one are 'Init', 'drawing'")
        #expect(throws: ExportError.noFunctionProfile(phase: "drawin", phasesWithProfiles: ["Init", "drawing"])) {
            try FunctionTableReport(phase: "drawin").render(Self.profiled())
        }
        #expect(throws: ExportError.noFunctionProfiles) {
            try FunctionTableReport(phase: "drawing").render(SampleResult.instructions())
        }
    }

    static func comparison() -> (Comparison, ComparisonContext) {
        let a = Self.profiled(), b = Self.profiled(fill: 1_030_000_000)
        var b2 = b
        for r in b2.runs.indices { b2.runs[r].phases[4].instructions! += 30_000_000 }
        let comparison = Comparison(baseline: PhaseTable(a), candidate: PhaseTable(b2), thresholds: Thresholds(), metric: .instructions)
        var context = ComparisonContext(baselineLabel: "a.json", candidateLabel: "b.json")
        context.functionChanges = FunctionReport.changes(comparison, baseline: a.functions, candidate: b2.functions, top: 5)
        return (comparison, context)
    }

    @Test func diffsNameTheFunctionsThatChangedEachChangedPhase() throws {
        let (comparison, context) = Self.comparison()
        #expect(comparison.regressions.map(\.path) == ["drawing"])
        #expect(Array(context.functionChanges.keys) == ["drawing"])
        let lines = FunctionReport.attributionLines(comparison, context)
        #expect(lines == ["drawing +2.1% (+30.0 M): Canvas.fillRoundedRect(_:radius:paint:) +30.0 M (+3.0%, self)"])
        #expect(ComparisonTextTable().render(comparison, context: context).contains("functions: " + lines[0]))
    }

    @Test func oneLineFormatsCarryTheTopFunctionOfARegression() throws {
        let (comparison, context) = Self.comparison()
        let top = "top function: Canvas.fillRoundedRect(_:radius:paint:) +30.0 M (+3.0%, self)"
        #expect(GitHubAnnotations().render(comparison, context: context).contains(top.replacingOccurrences(of: "%", with: "%25")))
        #expect(ComparisonMarkdown().render(comparison, context: context).contains(MarkdownText.escape(top)))
        #expect(JUnitReport().render(comparison, context: context).contains(XMLText.escape(top)))
        let json = try JSONSerialization.jsonObject(with: Data(try ComparisonJSON().render(comparison, context: context).utf8)) as? [String: Any]
        let drawing = (json?["functions"] as? [String: Any])?["drawing"] as? [[String: Any]]
        #expect(drawing?.first?["name"] as? String == "Canvas.fillRoundedRect(_:radius:paint:)")
        #expect(drawing?.first?["selfChange"] as? Int == 30_000_000)
        // Without profiles, nothing changes in the formats.
        var plain = context
        plain.functionChanges = [:]
        #expect(!GitHubAnnotations().render(comparison, context: plain).contains("top function"))
        #expect(!(try ComparisonJSON().render(comparison, context: plain)).contains("\"functions\""))
    }
}

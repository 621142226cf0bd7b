import LaunchprofTestSupport
import Foundation
import LaunchCore
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import LaunchFlameGraphs

/// The writers: folded stacks, speedscope (against speedscope's own schema), the SVG, each escaping
/// for its format; the result's compact form read back.
struct FlameGraphWriterTests {
    static let hostile = "a<b>&\"c\";d\ne"
    static let phase = PhaseStacks(
        phase: "drawing",
        stacks: [
            WeightedStack(frames: ["main", "draw", hostile], weight: 30),
            WeightedStack(frames: ["main", "draw"], weight: 10),
            WeightedStack(frames: ["main", "idle"], weight: 5)
        ])

    @Test func foldedStacksAreOneLinePerStackWithSeparatorsReplaced() {
        #expect(FoldedStacks.text(Self.phase) == "main;draw 10\nmain;draw;a<b>&\"c\":d e 30\nmain;idle 5\n")
        let after = PhaseStacks(
            phase: "drawing", stacks: [WeightedStack(frames: ["main", "draw"], weight: 14), WeightedStack(frames: ["main", "new"], weight: 1)])
        #expect(
            FoldedStacks.differentialText(baseline: Self.phase, candidate: after)
                == "main;draw 10 14\nmain;draw;a<b>&\"c\":d e 30 0\nmain;idle 5 0\nmain;new 0 1\n")
    }

    @Test func speedscopeValidatesAgainstItsPublishedSchema() throws {
        let profile = StackProfile(
            unit: .instructions, phases: [Self.phase, PhaseStacks(phase: "layout", stacks: [WeightedStack(frames: ["main"], weight: 7)])])
        let json = SpeedscopeProfile.json(try profile.selection(nil), unit: profile.unit, name: "r\"esult.json")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let frames = try #require((decoded["shared"] as? [String: Any])?["frames"] as? [[String: Any]])
        #expect(frames.contains { $0["name"] as? String == Self.hostile }, "the name survives JSON escaping")
        let profiles = try #require(decoded["profiles"] as? [[String: Any]])
        #expect(profiles.map { $0["name"] as? String } == ["whole launch", "drawing", "layout"])
        #expect(profiles[0]["endValue"] as? Int == 52)
        try Self.validateWithJSONSchema(json)
    }

    /// python3's jsonschema (draft 6, as the schema says) against speedscope's schema in Fixtures.
    static func validateWithJSONSchema(_ json: String) throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let file = URL(fileURLWithPath: TemporaryDirectory.uniquePath("flame.speedscope.json"))
        try json.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c",
            "import json, sys, jsonschema; jsonschema.Draft6Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2]))); print('valid')",
            directory.appendingPathComponent("speedscope-file-format-schema.json").path, file.path
        ]
        let output = Pipe()
        python.standardOutput = output
        python.standardError = output
        try python.run()
        python.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if text.contains("No module named 'jsonschema'") {
            Issue.record("python3's jsonschema is not installed (make setup installs it): the speedscope file was not validated")
            return
        }
        #expect(python.terminationStatus == 0 && text.hasPrefix("valid"), "\(text)")
    }

    @Test func svgEscapesNamesAndHasAGraphPerPhase() throws {
        let profile = StackProfile(unit: .instructions, phases: [Self.phase])
        let svg = FlameGraphSVG().svg(try profile.selection(nil), unit: .instructions, title: "t<&>")
        #expect(svg.components(separatedBy: "<g class=\"graph\"").count - 1 == 2)
        #expect(svg.contains("a&lt;b&gt;&amp;&quot;c&quot;;d&#10;e — 30 instructions, 66.67%"))
        #expect(!svg.contains(Self.hostile))
        #expect(svg.contains("<text x=\"10\" y=\"20\" style=\"font-size:15px\">t&lt;&amp;&gt;</text>"))
        #expect(!svg.contains("href") && !svg.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http"), "self-contained")
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    }

    @Test func theDifferentialGraphIsRedWhereItGrewAndBlueWhereItShrank() {
        let after = PhaseStacks(
            phase: "drawing", stacks: [WeightedStack(frames: ["main", "draw"], weight: 40), WeightedStack(frames: ["main", "idle"], weight: 1)])
        let svg = FlameGraphSVG().differentialSVG([(Self.phase, after)], unit: .instructions, title: "d")
        #expect(svg.contains("<title>draw — baseline 40, candidate 40 instructions: ±0 (±0.0%)</title>"), "\(svg)")
        #expect(svg.contains("<title>idle — baseline 5, candidate 1 instructions: −4 (−80.0%)</title>"))
        // idle shrank by the largest change (as main did): the deepest blue.
        #expect(svg.contains("fill=\"rgb(55,55,255)\""))
    }

    @Test func theResultsCompactFormReadsBackAndRefusesBadStacks() throws {
        let profile = StackProfile(unit: .samples, phases: [Self.phase])
        let stored = profile.stored(run: 2, reconstructed: false)
        let data = try JSONEncoder().encode(stored)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"stacks\":\"10 0 0 1,30 2 2,5 1 3\""), "\(text)")
        let back = try JSONDecoder().decode(ResultStacks.self, from: data)
        #expect(StackProfile(back) == StackProfile(unit: .samples, phases: [Self.phase.merged()]))
        for (bad, reason) in [
            ("10 0 0 1,30 3 2", "shares 3 frames with a stack of 2"), ("10 0", "has 0 frames"), ("x 0 1", "not 'weight shared frame...'"),
            ("10 0 9", "names frame 9, and there are 4 frames")
        ] {
            let edited = text.replacingOccurrences(of: "10 0 0 1,30 2 2,5 1 3", with: bad)
            #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(ResultStacks.self, from: Data(edited.utf8)) }
            do { _ = try JSONDecoder().decode(ResultStacks.self, from: Data(edited.utf8)) } catch { #expect("\(error)".contains(reason), "\(error)") }
        }
    }

    @Test func aMissingPhaseNamesThoseThereAre() throws {
        let profile = StackProfile(unit: .instructions, phases: [Self.phase, PhaseStacks(phase: "drawing/keys", stacks: [])])
        #expect(try profile.phase(named: "keys").phase == "drawing/keys")
        #expect(throws: FlameGraphError.noPhase("draw", available: ["drawing", "drawing/keys"])) { try profile.selection("draw") }
        #expect("\(FlameGraphError.noPhase("draw", available: ["drawing"]))" == "no phase 'draw' has call stacks; the phases with them are 'drawing'")
        #expect(throws: FlameGraphError.noStacks) { try StackProfile(unit: .instructions, phases: []).selection(nil) }
    }
}

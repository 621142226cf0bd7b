import Foundation
import LaunchCore
import LaunchExport
import LaunchResults
import Testing

/// `--functions`, for real: the app under Callgrind, its phases' functions demangled, `report
/// --functions`, and `check` naming the function a change went into (docs/functions.md).
@Suite(.serialized) struct FunctionsCLITests {
    @Test func runListsDemangledFunctionsUnderEachPhaseAndReportPrintsOne() throws {
        let output = CLI.temporaryPath("functions.json")
        let outcome = try CLI.run([
            "run", "--metric", "instructions", "--functions", "--top", "3", "--runs", "1", "--warmup", "0",
            "--snapshot", CLI.temporaryPath("s.png"), "--output", output
        ])
        try #require(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let drawing = try #require(lines.firstIndex { $0.hasPrefix("Instructions for drawing:") }, "\(outcome.stdout)")
        let top = lines[(drawing + 1)...].prefix { $0.hasPrefix("    ") && $0.contains(" self ") }
        #expect(top.count == 3, "\(outcome.stdout)")
        // Swift names demangled: `Canvas.…(…)`, no `$s` left.
        #expect(top.contains { $0.contains("Canvas.") || $0.contains("AlphaMask.") }, "\(top)")
        #expect(!outcome.stdout.contains("$s"), "\(outcome.stdout)")
        let result = try ResultFile.read(output)
        let profiles = try #require(result.functions)
        let phase = try #require(profiles.phase("drawing"))
        #expect(phase.functions.first?.inProgram == true || phase.functions.contains { $0.inProgram })
        // A child's function never has more self instructions than in its parent.
        let child = try #require(profiles.phase("drawing/keys"))
        for cost in child.functions {
            if let inParent = phase.functions.first(where: { $0.name == cost.name && $0.inProgram == cost.inProgram }) {
                #expect(inParent.selfCost >= cost.selfCost, "\(cost.name)")
            }
        }

        let table = try CLI.run(["report", output, "--functions", "drawing"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.hasPrefix("Functions of drawing: "))
        let missing = try CLI.run(["report", output, "--functions", "painting"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no phase 'painting' has a function profile; the phases with one are 'process start',"), "\(missing.stderr)")
    }

    @Test func functionsNeedInstructionsAndTopHasARange() throws {
        let time = try CLI.run(["run", "--functions", "--runs", "1"])
        #expect(time.status == 2)
        #expect(time.stderr.contains("--functions reads each phase's functions from Callgrind, so it needs --metric instructions"), "\(time.stderr)")
        let top = try CLI.run(["run", "--metric", "instructions", "--functions", "--top", "0"])
        #expect(top.status == 2)
        #expect(top.stderr.contains("--top must be from 1 to 100"), "\(top.stderr)")
    }

    @Test func checkNamesTheFunctionTheWorkWentInto() throws {
        let base = try TestManifest.make(fillRoundedRectWork: 0), slower = try TestManifest.make(fillRoundedRectWork: 1_000_000)
        let outcome = try CLI.run(["check", "--metric", "instructions", "--functions", "--baseline-manifest", base, "--manifest", slower])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let line = try #require(outcome.stderr.split(separator: "\n").first { $0.hasPrefix("launchprof: functions: drawing ") }, "\(outcome.stderr)")
        // `drawing +9.5% (+17.6 M): Canvas.fillRoundedRect(…) +17.6 M (+…%, self), …`: the first after the phase's change.
        let first = try #require(line.firstRange(of: "): ").map { line[$0.upperBound...] }, "\(line)")
        #expect(first.hasPrefix("Canvas.fillRoundedRect(_:radius:paint:opacity:) +"), "\(line)")
    }
}

import Foundation
import LaunchCore
import LaunchExport
import LaunchResults
import Testing

/// `report --flame-graph` and `diff --flame-graph` (docs/flame-graphs.md): a real `--functions` run's
/// stacks, and every input checked.
@Suite(.serialized) struct FlameGraphCLITests {
    @Test func aFunctionsRunHasStacksThatAddUpToEachPhase() throws {
        let output = CLI.temporaryPath("flame.json")
        let outcome = try CLI.run([
            "run", "--metric", "instructions", "--functions", "--runs", "1", "--warmup", "0", "--snapshot", CLI.temporaryPath("s.png"), "--output", output
        ])
        try #require(outcome.status == 0, "\(outcome.stderr)")
        let result = try ResultFile.read(output)
        let stacks = try #require(result.stacks)
        #expect(stacks.unit == "instructions" && stacks.reconstructed)
        let run = try #require(result.runs.first)
        let drawing = try #require(run.phases.first { $0.name == "drawing" }?.instructions)
        let phase = try #require(stacks.phase("drawing"))
        let total = phase.stacks.reduce(0) { $0 + $1.weight }
        // Every instruction of the phase is in a stack (rounding aside: under 0.01%).
        #expect(abs(total - drawing) <= drawing / 10_000, "\(total) of \(drawing)")
        // Demangled, and the drawing function sits above the pipeline's drawing step.
        let folded = try CLI.run(["report", output, "--flame-graph", "folded", "--phase", "keys"])
        #expect(folded.status == 0, "\(folded.stderr)")
        #expect(folded.stdout.split(separator: "\n").contains { $0.contains("Pipeline.runDraw();") && $0.contains(";UIRenderer.drawKeys(_:on:)") })
        #expect(!folded.stdout.contains("$s"))

        let svg = CLI.temporaryPath("flame.svg")
        let drawn = try CLI.run(["report", output, "--flame-graph", "svg", "--output", svg])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<text class=\"pick on\" data-i=\"0\"") && text.contains(">whole launch</text>") && text.contains(">drawing/keys</text>"))

        let same = try CLI.run(["diff", output, output, "--flame-graph", "folded"])
        #expect(same.status == 0, "\(same.stderr)")
        // Each line is `frames baseline candidate`, both the same here.
        #expect(
            same.stdout.split(separator: "\n").allSatisfy { line in
                let f = line.split(separator: " "); return f[f.count - 1] == f[f.count - 2]
            })
        let speedscope = try CLI.run(["diff", output, output, "--flame-graph", "speedscope"])
        #expect(speedscope.status == 2 && speedscope.stderr.contains("speedscope has no differential profile"), "\(speedscope.stderr)")

        let missing = try CLI.run(["report", output, "--flame-graph", "svg", "--phase", "painting"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no phase 'painting' has call stacks; the phases with them are 'process start',"), "\(missing.stderr)")
    }

    @Test func aResultWithoutStacksSaysHowToMakeOne() throws {
        let plain = CLI.temporaryPath("plain.json")
        let made = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--quiet", "--snapshot", CLI.temporaryPath("s.png"), "--output", plain])
        try #require(made.status == 0, "\(made.stderr)")
        let outcome = try CLI.run(["report", plain, "--flame-graph", "speedscope"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(plain): the result has no call stacks: make it with --metric instructions --functions"), "\(outcome.stderr)")
        let diff = try CLI.run(["diff", plain, plain, "--flame-graph", "svg"])
        #expect(diff.status == 2 && diff.stderr.contains("has no call stacks"), "\(diff.stderr)")
    }

    @Test func optionsAreCheckedBeforeAnyWork() throws {
        let phaseAlone = try CLI.run(["report", "r.json", "--phase", "drawing"])
        #expect(phaseAlone.status == 2 && phaseAlone.stderr.contains("--phase chooses the phase of --flame-graph"), "\(phaseAlone.stderr)")
        let mixed = try CLI.run(["report", "r.json", "--flame-graph", "svg", "--blame"])
        #expect(mixed.status == 2 && mixed.stderr.contains("--flame-graph writes a format of its own"), "\(mixed.stderr)")
        let format = try CLI.run(["report", "r.json", "--flame-graph", "png"])
        #expect(format.status == 2 && format.stderr.contains("--flame-graph"), "\(format.stderr)")
        let notADirectory = CLI.temporaryPath("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: notADirectory))
        let unwritable = try CLI.run(["report", "r.json", "--flame-graph", "svg", "--output", notADirectory + "/flame.svg"])
        #expect(unwritable.status == 2 && unwritable.stderr.contains("--output"), "\(unwritable.stderr)")
    }
}

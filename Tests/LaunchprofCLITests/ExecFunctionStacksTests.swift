import Foundation
import LaunchCore
import LaunchResults
import Testing

/// `exec --metric instructions --functions` of a C client program (Examples/c/keypad.c): its phases'
/// call stacks for flame graphs (docs/flame-graphs.md), reconstructed from Callgrind's call graph as
/// for the built-in app, with the C functions under `main` by their own names.
@Suite struct ExecFunctionStacksTests {
    @Test func aCClientsPhasesHaveStacksThatAddUpToEachPhase() throws {
        let keypad = CLI.temporaryPath("keypad-functions")
        defer { unlink(keypad) }
        // -fno-inline: parse() and draw() stay functions of their own, as a debug build has them.
        let compiled = try CLI.run([
            "exec", "--runs", "1", "--warmup", "0", "--quiet", "--", "cc", "-O1", "-fno-inline", "-pthread", "-I", CLI.packageRoot + "/include",
            "-o", keypad, CLI.packageRoot + "/Examples/c/keypad.c"
        ])
        guard compiled.status == 0 else { Issue.record("no C compiler to build Examples/c/keypad.c: \(compiled.stderr)"); return }
        let output = CLI.temporaryPath("exec-functions.json")
        defer { unlink(output) }
        let outcome = try CLI.run([
            "exec", "--metric", "instructions", "--functions", "--runs", "1", "--quiet", "--output", output, "--", keypad,
            CLI.packageRoot + "/Examples/keypad.conf"
        ])
        try #require(outcome.status == 0, "\(outcome.stderr)")
        let result = try ResultFile.read(output)
        let stacks = try #require(result.stacks, "no stacks in the result")
        #expect(stacks.unit == "instructions" && stacks.reconstructed)
        let run = try #require(result.runs.first)
        // Every phase the client reported has stacks, adding up to the phase's instructions (each
        // reconstructed stack's share is rounded to a whole instruction, those rounded to 0 left
        // out: a tolerance of one instruction a stack kept, or 0.1% of the phase).
        for name in ["loading config", "laying out keys", "drawing"] {
            let counted = try #require(run.phases.first { $0.name == name }?.instructions, "\(name) has no count")
            let phase = try #require(stacks.phase(name), "\(name) has no stacks: \(stacks.phases.map(\.phase))")
            let total = phase.stacks.reduce(0) { $0 + $1.weight }
            #expect(abs(total - counted) <= max(phase.stacks.count, counted / 1_000), "\(name): \(total) of \(counted) in \(phase.stacks.count) stacks")
        }
        // Nested phases by their path, with the C functions called from main by their own names.
        let parsing = try CLI.run(["report", output, "--flame-graph", "folded", "--phase", "loading config/parsing"])
        #expect(parsing.status == 0, "\(parsing.stderr)")
        #expect(parsing.stdout.split(separator: "\n").contains { $0.contains(";main;parse") }, "\(parsing.stdout.prefix(600))")
        let drawing = try CLI.run(["report", output, "--flame-graph", "folded", "--phase", "drawing"])
        #expect(drawing.stdout.split(separator: "\n").contains { $0.contains(";main;draw") }, "\(drawing.stdout.prefix(600))")
        #expect(!drawing.stdout.contains(";parse"), "parse ran in loading config, not in drawing")
        // The flame graph draws the program's phases.
        let svg = CLI.temporaryPath("exec-functions.svg")
        defer { unlink(svg) }
        let drawn = try CLI.run(["report", output, "--flame-graph", "svg", "--output", svg])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains(">loading config/parsing</text>") && text.contains(">drawing</text>"))
    }
}

import Foundation
import LaunchCore
import LaunchExport
import LaunchResults
import Testing

/// `--sample`, for real: perf samples the built-in app and a C client's runs, and each sample lands
/// in the phase that ran when it was taken (docs/sampling.md).
@Suite(.serialized) struct SampleCLITests {
    /// Whether perf is installed here (`make setup` installs it): without it these tests say so and stop.
    static let perfInstalled =
        ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/perf")
        } == true

    /// Top-level phase paths of `samples` whose functions include `name` (self samples > 0), with those samples.
    static func selfSamples(of name: String, in samples: SampleProfiles) -> [String: Int] {
        var out: [String: Int] = [:]
        for phase in samples.phases where !phase.phase.contains("/") {
            let count = phase.functions.filter { $0.name.hasPrefix(name) }.reduce(0) { $0 + $1.selfCost }
            if count > 0 { out[phase.phase] = count }
        }
        return out
    }

    @Test func aBusyFunctionsSamplesLandInTheDrawingPhaseItRunsIn() throws {
        guard Self.perfInstalled else { Issue.record("perf is not installed (make setup): --sample was not tested"); return }
        // fillRoundedRect made slow in its own code (test.slowFunction): drawing's top function by
        // samples. Its samples must fall in drawing, not in the phases before or after: the samples'
        // CLOCK_MONOTONIC times and the phases' line up.
        let manifest = try TestManifest.make(fillRoundedRectWork: 10_000_000)
        let output = CLI.temporaryPath("sampled.json")
        let outcome = try CLI.run([
            "run", "--sample", "--sample-rate", "10000", "--runs", "2", "--warmup", "0", "--manifest", manifest,
            "--snapshot", CLI.temporaryPath("s.png"), "--output", output, "--top", "3"
        ])
        try #require(outcome.status == 0, "\(outcome.stderr)")
        let result = try ResultFile.read(output)
        let samples = try #require(result.samples, "no samples in the result")
        #expect(samples.rate == 10000 && samples.runs == 2)
        let drawing = try #require(samples.phase("drawing"), "\(samples.phases.map(\.phase))")
        let top = try #require(drawing.functions.first)
        #expect(top.name.hasPrefix("Canvas.fillRoundedRect("), "\(drawing.functions.prefix(5))")
        #expect(top.inProgram)
        let byPhase = Self.selfSamples(of: "Canvas.fillRoundedRect(", in: samples)
        let inDrawing = byPhase["drawing"] ?? 0, elsewhere = byPhase.filter { $0.key != "drawing" }.values.reduce(0, +)
        #expect(inDrawing > 50 && elsewhere * 100 <= inDrawing, "fillRoundedRect's samples by phase: \(byPhase)")
        // A parent's samples hold its children's.
        for phase in samples.phases where phase.phase.contains("/") {
            let parent = String(phase.phase[..<phase.phase.lastIndex(of: "/")!])
            #expect((samples.phase(parent)?.total ?? 0) >= phase.total, "\(phase.phase)")
        }
        // The report lists the top functions under drawing's line, demangled.
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let line = try #require(lines.firstIndex { $0.hasPrefix("Time for drawing:") }, "\(outcome.stdout)")
        #expect(lines[line + 1].contains(" self ") && lines[line + 1].contains("Canvas.fillRoundedRect("), "\(outcome.stdout)")
        #expect(lines.contains { $0.hasPrefix("Samples: ") && $0.contains("at 10000 Hz") }, "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("$s14"), "\(outcome.stdout)")
        // The timeline keeps the median run's samples for the Chrome trace, which shows them.
        let timeline = try #require(samples.timeline)
        #expect(!timeline.samples.isEmpty)
        let trace = try ChromeTraceExporter().render(result)
        #expect(trace.contains(#""cat":"sample""#) && trace.contains("samples: main"))
        // The stacks for flame graphs, in samples, recorded (not reconstructed): report draws them.
        let stacks = try #require(result.stacks)
        #expect(stacks.unit == "samples" && !stacks.reconstructed)
        let folded = try CLI.run(["report", output, "--flame-graph", "folded", "--phase", "drawing"])
        #expect(folded.status == 0, "\(folded.stderr)")
        #expect(folded.stdout.contains("Canvas.fillRoundedRect("), "\(folded.stdout.prefix(400))")
    }

    @Test func aCClientIsSampledUnderExec() throws {
        guard Self.perfInstalled else { Issue.record("perf is not installed (make setup): exec --sample was not tested"); return }
        let keypad = CLI.temporaryPath("keypad")
        let compiled = try CLI.run([
            "exec", "--runs", "1", "--warmup", "0", "--quiet", "--", "cc", "-O2", "-pthread", "-I", CLI.packageRoot + "/include", "-o", keypad,
            CLI.packageRoot + "/Examples/c/keypad.c"
        ])
        guard compiled.status == 0 else { Issue.record("no C compiler to build Examples/c/keypad.c: \(compiled.stderr)"); return }
        let outcome = try CLI.run([
            "exec", "--sample", "--sample-rate", "20000", "--runs", "5", "--warmup", "0", "--format", "json", "--", keypad,
            CLI.packageRoot + "/Examples/keypad.conf"
        ])
        try #require(outcome.status == 0, "\(outcome.stderr)")
        let result = try ResultFile.decode(Array(outcome.stdout.utf8), path: "stdout")
        let samples = try #require(result.samples, "no samples in the result")
        #expect(samples.runs == 5 && samples.samples > 0, "\(samples)")
        // Its samples are in the phases the client reported (and process start, before main).
        let paths = Set(result.runs.flatMap { run in run.phases.map(\.name) })
        for phase in samples.phases {
            #expect(phase.phase.split(separator: "/").allSatisfy { paths.contains(String($0)) }, "\(phase.phase) not in \(paths)")
        }
        #expect(samples.phase("process start") != nil, "\(samples.phases.map(\.phase))")
    }

    @Test func sampleOptionsAreCheckedBeforeAnyWork() throws {
        let rate = try CLI.run(["run", "--sample", "--sample-rate", "50"])
        #expect(rate.status == 2)
        #expect(rate.stderr.contains("--sample-rate must be from 100 to 20000"), "\(rate.stderr)")
        let alone = try CLI.run(["run", "--sample-rate", "1000"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--sample-rate needs --sample"), "\(alone.stderr)")
        let instructions = try CLI.run(["run", "--sample", "--metric", "instructions"])
        #expect(instructions.status == 2)
        #expect(instructions.stderr.contains("--sample times the launch with perf"), "\(instructions.stderr)")
        let compared = try CLI.run(["exec", "--sample", "--baseline-command", "true", "--", "/bin/true"])
        #expect(compared.status == 2)
        #expect(compared.stderr.contains("--sample profiles one command"), "\(compared.stderr)")
        // Without perf on PATH: one message saying what to install, exit 2, and no run made.
        let empty = CLI.temporaryPath("no-perf")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let missing = try CLI.run(["exec", "--sample", "--", "/bin/true"], environment: ["PATH": empty])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("perf is not installed: install it with `sudo apt-get install linux-perf` (or `make setup`)"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)
    }
}

import Foundation
import Testing
import LaunchCore
@testable import LaunchTraces

/// The readers against the real programs on this machine (python3, git), run as the launcher will:
/// with `TraceCapture`'s arguments and environment, timed with a `SpawnClock`.
@Suite(.serialized) struct RealProgramTraceTests {
    /// Runs `argv` (found on PATH) as `capture` asks, in `directory`; returns the reading and the raw stderr.
    static func run(_ capture: TraceCapture, _ argv: [String], in directory: String? = nil, runFile: String? = nil) throws -> (TraceReading, String, SpawnClock)
    {
        try capture.prepare(runFile: runFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = capture.arguments(argv)
        // The user's own GIT_* and PYTHON* settings (a GIT_DIR, a trace target) stay out of the test.
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") && !$0.key.hasPrefix("PYTHONPROFILE") }
        environment.merge(capture.environment(runFile: runFile, arguments: argv)) { _, new in new }
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        var clock = SpawnClock.now()
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        clock.endMonotonicNanoseconds = MonotonicClock.nanoseconds()
        #expect(process.terminationStatus == 0, "\(argv) exited \(process.terminationStatus): \(String(decoding: stderr, as: UTF8.self))")
        let reading = try capture.read(stderr: Array(stderr), runFile: runFile, clock: clock)
        return (reading, String(decoding: stderr, as: UTF8.self), clock)
    }

    /// The cumulative µs the interpreter printed for `module`.
    static func cumulative(_ module: String, in stderr: String) -> Int? {
        for line in stderr.split(separator: "\n") where line.hasPrefix("import time:") {
            let fields = line.split(separator: "|")
            if fields.count == 3, fields[2].trimmingCharacters(in: .whitespaces) == module {
                return Int(fields[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    @Test func pythonImportsOfJSONAreNestedWithTheirCumulativeTimes() throws {
        let capture = try TraceCapture(format: .pythonImporttime, traceFile: nil)
        let (reading, stderr, clock) = try Self.run(capture, ["python3", "-c", "import json; import sys; sys.stderr.write('done\\n')"])
        let json = try TraceTest.phase("import json", in: reading)
        let decoder = try TraceTest.phase("import json.decoder", in: reading)
        #expect(decoder.parent == TraceTest.index("import json", in: reading))
        #expect(decoder.depth == json.depth + 1 && decoder.thread == 0)
        #expect(decoder.start >= json.start && decoder.end <= json.end)
        // A phase lasts its cumulative time (or its children's sum, larger by the interpreter's
        // rounding up of each to a whole µs: at most 1 µs per child).
        for (phase, module) in [(json, "json"), (decoder, "json.decoder")] {
            let printed = try #require(Self.cumulative(module, in: stderr), "no import time for \(module) in \(stderr)")
            let children = reading.phases.filter { $0.parent == TraceTest.index(phase.name, in: reading) }.count
            let micros = (phase.duration * 1e6).rounded()
            #expect(micros >= Double(printed) && micros <= Double(printed + children), "\(module): \(micros) µs, printed \(printed) µs")
        }
        #expect(reading.phases.count == stderr.split(separator: "\n").filter { $0.hasPrefix("import time:") && !$0.contains("imported package") }.count)
        #expect(String(decoding: reading.stderr, as: UTF8.self) == "done\n", "only the program's own line is left")
        TraceTest.expectWellFormed(reading, duration: clock.duration)
    }

    /// A script started by its `#!` line: python is not the command, so the variable is set.
    @Test func aPythonScriptIsTracedThroughTheEnvironment() throws {
        let dir = try TraceTest.temporaryDirectory()
        defer { FileIO.removeTree(dir) }
        let script = "\(dir)/tool.py"
        try FileIO.writeAtomically("#!/usr/bin/env python3\nimport json.decoder\n", to: script)
        #expect(chmod(script, 0o755) == 0)
        let capture = try TraceCapture(format: .pythonImporttime, traceFile: nil)
        #expect(capture.environment(runFile: nil, arguments: [script]) == ["PYTHONPROFILEIMPORTTIME": "1"])
        let (reading, _, clock) = try Self.run(capture, [script])
        // `import json.decoder` imports the package `json` first, which imports `json.decoder`.
        let outer = try TraceTest.phase("import json.decoder", in: reading)
        let names = { (phase: PhaseRecord) in reading.phases.filter { $0.parent.map { reading.phases[$0] } == phase }.map(\.name) }
        #expect(outer.depth == 0 && names(outer) == ["import json"])
        let json = try TraceTest.phase("import json", in: reading)
        #expect(names(json).contains("import json.decoder"))
        TraceTest.expectWellFormed(reading, duration: clock.duration)
    }

    /// A repository with a commit: `git status` reads the index, refreshes it, and prints.
    static func repository() throws -> String {
        let dir = try TraceTest.temporaryDirectory()
        for i in 0..<20 { try FileIO.writeAtomically("file \(i)\n", to: "\(dir)/f\(i).txt") }
        for argv in [
            ["git", "init", "-q"], ["git", "add", "."],
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "initial"]
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = argv
            process.currentDirectoryURL = URL(fileURLWithPath: dir)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            var environment = ProcessInfo.processInfo.environment
            for key in environment.keys where key.hasPrefix("GIT_") { environment[key] = nil }
            process.environment = environment
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(argv)")
        }
        return dir
    }

    @Test func gitStatusRegionsAreNestedPhases() throws {
        let repo = try Self.repository()
        defer { FileIO.removeTree(repo) }
        let work = try TraceTest.temporaryDirectory()
        defer { FileIO.removeTree(work) }
        let capture = try TraceCapture(format: .gitTrace2, traceFile: nil)
        let runFile = try #require(capture.runFile(in: work))
        for _ in 0..<2 {  // The second run's file is its own: the first's was removed.
            let (reading, _, clock) = try Self.run(capture, ["git", "status"], in: repo, runFile: runFile)
            #expect(reading.anchor == .wallClock)
            let index = try TraceTest.phase("do_read_index (index)", in: reading)
            let tree = try TraceTest.phase("read (cache_tree)", in: reading)
            #expect(tree.parent == TraceTest.index("do_read_index (index)", in: reading) && tree.depth == index.depth + 1)
            #expect(index.thread == 0 && index.depth == 0)
            let worktrees = try TraceTest.phase("worktrees (status)", in: reading)
            #expect(reading.phases.contains { $0.parent == TraceTest.index("worktrees (status)", in: reading) && $0.depth == worktrees.depth + 1 })
            #expect(reading.phases.filter { $0.name == "do_read_index (index)" }.count == 1, "one run's events only")
            TraceTest.expectWellFormed(reading, duration: clock.duration)
        }
    }

    /// An alias runs another git as a child process: its lifetime is a phase, with its regions inside.
    @Test func aChildGitProcessNestsItsRegionsInItsLifetime() throws {
        let repo = try Self.repository()
        defer { FileIO.removeTree(repo) }
        let work = try TraceTest.temporaryDirectory()
        defer { FileIO.removeTree(work) }
        let capture = try TraceCapture(format: .gitTrace2, traceFile: nil)
        let runFile = capture.runFile(in: work)
        let (reading, _, clock) = try Self.run(capture, ["git", "-c", "alias.st=!exec git status", "st"], in: repo, runFile: runFile)
        let child = try #require(reading.phases.first { $0.name.hasPrefix("child: exec git status") }, "\(reading.phases.map(\.name))")
        #expect(child.thread != 0 && child.depth == 0)
        let index = try TraceTest.phase("do_read_index (index)", in: reading)
        #expect(index.thread == child.thread && index.depth == 1 && index.parent.map { reading.phases[$0].name } == child.name)
        TraceTest.expectWellFormed(reading, duration: clock.duration)
    }
}

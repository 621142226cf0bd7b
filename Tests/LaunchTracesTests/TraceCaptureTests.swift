#if canImport(Glibc)
import Glibc
#endif
import Testing
import LaunchCore
@testable import LaunchTraces

/// What `--trace` asks of the launcher, and how a run's trace file is read.
@Suite struct TraceCaptureTests {
    @Test func optionsThatDoNotGoTogetherAreRefused() throws {
        #expect(throws: TraceError.self) { try TraceCapture(format: .chromeTrace, traceFile: nil) }
        #expect(throws: TraceError.self) { try TraceCapture(format: .pythonImporttime, traceFile: "t.json") }
        #expect(throws: TraceError.self) { try TraceCapture(format: .gitTrace2, traceFile: "") }
        do {
            _ = try TraceCapture(format: .chromeTrace, traceFile: nil)
        } catch {
            #expect(error.description.hasPrefix("--trace chrome-trace needs --trace-file FILE"))
        }
        #expect(TraceFormat(rawValue: "git-trace2") == .gitTrace2)
        #expect(TraceFormat.allCases.map(\.rawValue) == ["python-importtime", "git-trace2", "chrome-trace"])
    }

    @Test func eachRunWritesItsTraceWhereTheFormatSays() throws {
        #expect(try TraceCapture(format: .pythonImporttime, traceFile: nil).runFile(in: "/tmp/d") == nil)
        #expect(try TraceCapture(format: .chromeTrace, traceFile: "out/t.json").runFile(in: "/tmp/d") == "out/t.json")
        #expect(try TraceCapture(format: .gitTrace2, traceFile: nil).runFile(in: "/tmp/d") == "/tmp/d/trace2-events.json")
        // git takes only absolute paths.
        let relative = try TraceCapture(format: .gitTrace2, traceFile: "events.json")
        #expect(relative.traceFile?.hasPrefix("/") == true && relative.traceFile?.hasSuffix("/events.json") == true)
    }

    @Test func pythonGetsTheOptionWhenItIsTheCommandAndTheVariableOtherwise() throws {
        let capture = try TraceCapture(format: .pythonImporttime, traceFile: nil)
        for interpreter in ["python3", "/usr/bin/python3.11", "python", "python3.13t"] {
            let argv = [interpreter, "-c", "import json"]
            #expect(capture.arguments(argv) == [interpreter, "-X", "importtime", "-c", "import json"])
            #expect(capture.environment(runFile: nil, arguments: argv) == [:])
        }
        let given = ["python3", "-X", "importtime", "app.py"]
        #expect(capture.arguments(given) == given)
        #expect(capture.environment(runFile: nil, arguments: given) == [:])
        for other in [["./manage.py", "check"], ["/bin/sh", "-c", "python3 x.py"], ["pythonic"], ["pytest"]] {
            #expect(capture.arguments(other) == other)
            #expect(capture.environment(runFile: nil, arguments: other) == ["PYTHONPROFILEIMPORTTIME": "1"])
        }
    }

    @Test func gitAndChromeGetTheirFilesInTheEnvironment() throws {
        let git = try TraceCapture(format: .gitTrace2, traceFile: nil)
        #expect(
            git.environment(runFile: "/tmp/d/t.json", arguments: ["git", "status"])
                == ["GIT_TRACE2_EVENT": "/tmp/d/t.json", "GIT_TRACE2_EVENT_NESTING": "256", "GIT_TRACE2_EVENT_BRIEF": "false"])
        #expect(git.arguments(["git", "status"]) == ["git", "status"])
        let chrome = try TraceCapture(format: .chromeTrace, traceFile: "t.json")
        #expect(chrome.environment(runFile: "t.json", arguments: ["app"]) == ["LAUNCHPROF_TRACE_FILE": "t.json"])
    }

    /// Before each run the previous trace goes (git appends to its file), so a run that writes none
    /// fails instead of being credited with the last one.
    @Test func prepareRemovesThePreviousTraceAndRefusesSpecialFiles() throws {
        let dir = try TraceTest.temporaryDirectory()
        defer { FileIO.removeTree(dir) }
        let capture = try TraceCapture(format: .chromeTrace, traceFile: "\(dir)/t.json")
        try FileIO.writeAtomically("[]", to: "\(dir)/t.json")
        try capture.prepare(runFile: "\(dir)/t.json")
        #expect(!FileIO.exists("\(dir)/t.json"))
        try capture.prepare(runFile: "\(dir)/t.json")  // Nothing to remove.
        let error = TraceTest.error { () throws(TraceError) in try capture.read(stderr: [], runFile: "\(dir)/t.json", clock: TraceTest.clock()) }
        #expect(
            error?.description
                == "\(dir)/t.json: the program wrote no trace: the file does not exist (does the program write its Chrome trace to the file given with --trace-file?)"
        )
        #expect(mkdir("\(dir)/d", 0o755) == 0)
        #expect(throws: TraceError.malformed(source: "\(dir)/d", reason: "is not a regular file: the program's trace must go to a regular file")) {
            try capture.prepare(runFile: "\(dir)/d")
        }
    }

    @Test func aMissingGitTraceSaysGitWroteNothing() throws {
        let capture = try TraceCapture(format: .gitTrace2, traceFile: nil)
        let error = TraceTest.error { () throws(TraceError) in
            try capture.read(stderr: [], runFile: "/nonexistent/trace2-events.json", clock: TraceTest.clock())
        }
        #expect(error?.reason.hasPrefix("git wrote no Trace2 events: the file does not exist") == true)
    }

    /// Trace files are read as every input is: regular files only (checked on the opened
    /// descriptor), at most 256 MiB, never waited on.
    @Test func specialAndOversizedTraceFilesAreRefused() throws {
        let dir = try TraceTest.temporaryDirectory()
        defer { FileIO.removeTree(dir) }
        let capture = try TraceCapture(format: .chromeTrace, traceFile: "\(dir)/t.json")
        func readError(_ path: String) -> TraceTest.Failure? {
            TraceTest.error { () throws(TraceError) in try capture.read(stderr: [], runFile: path, clock: TraceTest.clock()) }
        }
        #expect(mkfifo("\(dir)/fifo", 0o644) == 0)
        #expect(readError("\(dir)/fifo")?.reason == "is a FIFO (named pipe), not a regular file: launchprof reads inputs from regular files only")
        #expect(symlink("/dev/zero", "\(dir)/zero") == 0)
        #expect(readError("\(dir)/zero")?.reason == "is a character device, not a regular file: launchprof reads inputs from regular files only")
        let big = "\(dir)/big.json"
        let fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0 && ftruncate(fd, off_t(TraceLimits.fileBytes + 1)) == 0)
        close(fd)
        #expect(readError(big)?.description == "\(big): is \(TraceLimits.fileBytes + 1) bytes, larger than the limit of 256 MiB for a trace file")
        try FileIO.writeAtomically([0x1F, 0x8B, 8, 0], to: "\(dir)/t.json.gz")
        #expect(readError("\(dir)/t.json.gz")?.reason == "is compressed with gzip: launchprof reads a Chrome trace as plain JSON")
    }

    /// The whole path: a trace file on disk, read after the run, stderr handed back unchanged.
    @Test func aChromeTraceIsReadFromItsFile() throws {
        let dir = try TraceTest.temporaryDirectory()
        defer { FileIO.removeTree(dir) }
        let capture = try TraceCapture(format: .chromeTrace, traceFile: "\(dir)/t.json")
        try FileIO.writeAtomically("{\"traceEvents\":[{\"name\":\"init\",\"ph\":\"X\",\"ts\":5,\"dur\":10}]}", to: "\(dir)/t.json")
        let reading = try capture.read(stderr: Array("warning\n".utf8), runFile: "\(dir)/t.json", clock: TraceTest.clock())
        #expect(reading.phases.map(\.name) == ["init"] && reading.stderr == Array("warning\n".utf8))
    }
}

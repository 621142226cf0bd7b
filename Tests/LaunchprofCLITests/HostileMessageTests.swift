import Foundation
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// Through the real command: timeouts that hold whatever a ready pattern does, messages that quote
/// user text on one line, errors whose first words are the true cause, outputs through links.
@Suite(.serialized, .timeLimit(.minutes(3))) struct HostileMessageTests {
    /// The lines of `stderr`, none of which may start a forged message.
    func expectNoForgedLine(_ stderr: String) {
        for line in stderr.split(separator: "\n") {
            #expect(!line.hasPrefix("quit:"), "\(stderr)")
        }
    }

    @Test func aBacktrackingReadyPatternCannotStarveTheTimeout() throws {
        let run = try CLI.runMeasured([
            "exec", "--runs", "1", "--warmup", "0", "--timeout", "2", "--ready-when-output", #"(.*)(.*)(.*)\3\2\1x"#, "--",
            "python3", "-c", "import time; print('a' * 3000, flush=True); time.sleep(60)"
        ])
        #expect(run.outcome.status == 2)
        #expect(run.outcome.stderr.contains("did not finish within the 2 s timeout"), "\(run.outcome.stderr)")
        // It was still running at 25 s before; now the timeout and the kill, with slack for a busy machine.
        #expect(run.seconds < 12, "\(run.seconds) s")
    }

    @Test func aReadyLineAfterASlowLineIsStillTimedAtItsOwnReading() throws {
        // The first line takes the pattern a while; the ready line behind it still ends the launch.
        let run = try CLI.runMeasured([
            "exec", "--runs", "1", "--warmup", "0", "--timeout", "20", "--ready-when-output", #"^(a|aa)*b$|ready"#, "--",
            "python3", "-c", "import time; print('a' * 26, flush=True); print('ready', flush=True); time.sleep(60)"
        ])
        #expect(run.outcome.status == 0, "\(run.outcome.stderr)")
        #expect(run.seconds < 15, "\(run.seconds) s")
    }

    @Test func aHugeRepetitionIsRefusedBeforeCompiling() throws {
        let run = try CLI.runMeasured(["exec", "--runs", "1", "--ready-when-output", "x{32767}{32767}", "--", "true"])
        #expect(run.outcome.status == 2)
        #expect(
            run.outcome.stderr
                == "launchprof: error: --ready-when-output: 'x{32767}{32767}' is not a valid extended regular expression: its repetitions written out make 1073676289 atoms, more than the limit of 100000 (docs/limits.md)\n"
        )
        #expect(run.peakBytes < 100 << 20 && run.seconds < 5)
    }

    @Test func aTapKeyWithANewlineIsQuotedOnOneLine() throws {
        let outcome = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--tap", "0.3:x\nquit: forged"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(#"--tap 'x\nquit: forged': "#), "\(outcome.stderr)")
        expectNoForgedLine(outcome.stderr)
    }

    @Test(arguments: [["run", "--runs", "5\nquit: forged"], ["diff", "--threshold", "x\nquit: forged", "a", "b"], ["report", "missing\nquit: forged.json"]])
    func argumentsEchoedByAnyMessageAreEscaped(_ arguments: [String]) throws {
        let outcome = try CLI.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(#"\nquit: forged"#), "\(outcome.stderr)")
        expectNoForgedLine(outcome.stderr)
    }

    @Test func aCrashAfterAPartialLineIsTheHeadline() throws {
        let script = try CLI.pythonScript(
            """
            import os, signal
            os.write(3, b"launchprof 1\\nbegin - 0 - drawing\\nbeg")
            os.kill(os.getpid(), signal.SIGSEGV)
            """)
        defer { unlink(script) }
        let outcome = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--", "python3", script])
        #expect(outcome.status == 2)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "launchprof: error: python3 crashed: killed by SIGSEGV (signal 11) during 'drawing'", "\(outcome.stderr)")
        #expect(lines.count > 1 && lines[1].hasPrefix("its report ends in a partial line: it sent garbage: protocol line 3: unknown line 'beg'"))
    }

    @Test func aFailingExitAfterAPartialLineIsTheHeadline() throws {
        let script = try CLI.pythonScript(
            """
            import os, sys
            os.write(3, b"launchprof 1\\nmark - 0 x\\nmar")
            sys.stderr.write("disk full\\n")
            sys.exit(3)
            """)
        defer { unlink(script) }
        let outcome = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--", "python3", script])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("launchprof: error: python3 exited with status 3:\nits report ends in a partial line: "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("disk full"))
    }

    @Test func garbageLaunchprofKilledTheProgramForStaysTheHeadline() throws {
        let script = try CLI.pythonScript(
            """
            import os, time
            os.write(3, b"launchprof 1\\nnonsense here\\n")
            time.sleep(30)
            """)
        defer { unlink(script) }
        let outcome = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--", "python3", script])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("launchprof: error: python3 sent garbage: protocol line 2: unknown line 'nonsense here'"), "\(outcome.stderr)")
    }

    @Test func aBackgroundStepWaitingForTheLockSaysSo() throws {
        let (manifest, snapshot) = try TestManifest.with(strategies: #""snapshotFirst": false"#, name: "lockwait")
        let lock = open(snapshot + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)
        defer { close(lock) }
        let outcome = try CLI.run(["run", "--manifest", manifest, "--runs", "1", "--warmup", "0", "--background-budget", "1"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("killed in the background after 1.0 s (it was in 'waiting for the state lock')"), "\(outcome.stderr)")
    }

    @Test func aTimeoutWhileTheLaunchWaitsForTheLockNamesIt() throws {
        let (manifest, snapshot) = try TestManifest.with(strategies: #""snapshotFirst": true"#, name: "lockwait")
        let lock = open(snapshot + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)
        defer { close(lock) }
        let outcome = try CLI.run(["run", "--manifest", manifest, "--runs", "1", "--warmup", "0", "--timeout", "1"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("timeout and was killed (it was in 'waiting for the state lock')"), "\(outcome.stderr)")
    }

    @Test func outputThroughALinkToAMissingFileKeepsTheLink() throws {
        let directory = CLI.temporaryPath("links")
        try FileIO.createDirectories(directory)
        defer { FileIO.removeTree(directory) }
        #expect(symlink("results/run.json", directory + "/latest.json") == 0)
        let outcome = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--quiet", "--output", directory + "/latest.json", "--", "true"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var info = stat()
        #expect(lstat(directory + "/latest.json", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try ResultFile.read(directory + "/results/run.json").runs.count == 1)
    }
}

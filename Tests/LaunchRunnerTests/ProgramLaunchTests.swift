import Testing
@testable import LaunchRunner
import LaunchCore
import LaunchprofTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Launches of programs that are not the built-in app (`launchprof exec`): the whole process timed,
/// its own protocol when it speaks it, CPU time and peak memory through `launchprof-spawn`, exit
/// statuses, and the ready conditions.
@Suite struct ProgramLaunchTests {
    static let spawner = BuiltProducts.executable("launchprof-spawn")

    func launcher(_ script: String, _ configure: (inout ProgramOptions) -> Void = { _ in }) -> ProcessLauncher {
        var launcher = ProcessLauncher(executable: "/bin/sh", arguments: ["-c", script], timeout: 20)
        var program = ProgramOptions()
        program.spawner = Self.spawner
        configure(&program)
        launcher.program = program
        return launcher
    }

    func temporaryPath(_ name: String) -> String {
        TemporaryDirectory.uniquePath("program-\(name)")
    }

    @Test func aProgramThatIgnoresTheDescriptorIsTimedAsAWhole() throws {
        #expect(ExecutableSearch.isExecutableFile(Self.spawner), "swift build --build-tests builds launchprof-spawn")
        let record = try launcher("sleep 0.05").launch(index: 1)
        #expect(record.phases.isEmpty)
        #expect(record.total >= 0.05 && record.total < 10)
        let process = try #require(record.process)
        #expect(process.exitStatus == 0 && process.signal == nil)
        #expect(process.user >= 0 && process.system >= 0)
    }

    @Test func cpuTimeComesFromWait4() throws {
        // A busy loop of about 0.1 s of CPU in the shell.
        let record = try launcher("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done").launch(index: 1)
        let process = try #require(record.process)
        #expect(process.user + process.system > 0.02, "the loop's CPU time is counted")
        #expect(process.user + process.system <= record.total * 1.05 + 0.01, "one thread cannot use more CPU than wall time")
    }

    @Test func aProgramWithoutAClientGetsTheWholeProcesssCounters() throws {
        // 200 KB read and 100 KB written by dd, a child of the shell: waited for, so counted.
        let path = temporaryPath("counters")
        defer { unlink(path) }
        let record = try launcher("head -c 200000 /dev/zero > \(path); dd if=\(path) of=/dev/null bs=4096 2>/dev/null; head -c 100000 /dev/zero > /dev/null")
            .launch(index: 1)
        #expect(record.phases.isEmpty)
        let counters = try #require(record.process?.counters, "the spawner reports wait4's counters and /proc/<pid>/io")
        #expect(try #require(counters.bytesRead) >= 200_000)
        #expect(try #require(counters.bytesWritten) >= 200_000)
        #expect(counters.minorFaults > 0, "starting a process faults its pages in")
        let process = try #require(record.process)
        #expect(abs(counters.cpuTime - (process.user + process.system)) < 1e-9)
        #expect(record.launchCounters == counters, "the launch's counters are the process's")
    }

    @Test func peakMemoryIsTheProgramsOwnNotLaunchprofs() throws {
        // launchprof (this test process, tens of MiB) must not show through as a small program's peak.
        let own = ProcessMemory.peakResidentBytes()
        let record = try launcher("exit 0").launch(index: 1)
        let peak = try #require(record.peakResidentBytes)
        #expect(peak > 0)
        // About 1 MiB (GNU time says the same): not the launcher's size, nor the spawner's own runtime.
        #expect(peak < 3 << 20, "a shell that exits at once peaks under 3 MiB, not at the launcher's \(own >> 20) MiB")
        // A program that allocates 64 MiB shows it.
        let big = try launcher("exec python3 -c 'b = bytearray(64 << 20); b[::4096] = b\"x\" * len(b[::4096])'").launch(index: 1)
        #expect(try #require(big.peakResidentBytes) > 64 << 20)
    }

    @Test func itsOwnPhasesComeThroughTheDescriptorItIsNamed() throws {
        let script = """
            [ "$LAUNCHPROF_FD" = 3 ] || exit 9
            printf 'launchprof 1\\nbegin - 0 io reading config\\n' >&3; sleep 0.02
            printf 'end - 0 reading config\\nmark - 0 interactive\\ncount 3 files read\\ndone -\\n' >&3
            sleep 0.05
            """
        let record = try launcher(script).launch(index: 1)
        #expect(record.phases.map(\.name) == ["reading config"])
        // `-` stamps a line when launchprof reads it: on a loaded machine two lines written 20 ms
        // apart may be read together, so only the order is certain, not the 20 ms.
        #expect(record.phases[0].duration >= 0)
        #expect(record.counter("files read") == 3)
        #expect(record.marks.map(\.name) == ["interactive"])
        // The total runs to the exit, past the report's end (read no later than the exit).
        #expect(record.total >= record.phases[0].end)
    }

    @Test func aReportLeftUnfinishedFailsTheRun() {
        #expect(throws: RunnerError.incomplete(lines: 2)) {
            try launcher("printf 'launchprof 1\\nbegin - 0 - loading\\n' >&3").launch(index: 1)
        }
    }

    @Test func expectedPhasesMustAppear() throws {
        let script = "printf 'launchprof 1\\nbegin - 0 - a\\nend - 0 a\\ndone -\\n' >&3"
        #expect(throws: RunnerError.missingPhase("b")) {
            try launcher(script) { $0.expectedPhases = ["a", "b"] }.launch(index: 1)
        }
        #expect(throws: RunnerError.missingPhase("a")) {
            try launcher("exit 0") { $0.expectedPhases = ["a"] }.launch(index: 1)
        }
        #expect(try launcher(script) { $0.expectedPhases = ["a"] }.launch(index: 1).phases.count == 1)
    }

    @Test func aNonZeroExitFailsUnlessIgnored() throws {
        let failure = #expect(throws: RunnerError.self) { try launcher("echo 'no config' >&2; exit 3").launch(index: 1) }
        #expect(failure?.message(subject: "tool") == "tool exited with status 3:\nno config")
        let record = try launcher("exit 3") { $0.ignoreFailure = true }.launch(index: 1)
        #expect(record.process?.exitStatus == 3)
        let killed = try launcher("kill -SEGV $$") { $0.ignoreFailure = true }.launch(index: 1)
        #expect(killed.process?.signal == Int(SIGSEGV) && killed.process?.exitStatus == nil)
    }

    @Test func readyWhenOutputMatchesALineOnEitherStream() throws {
        guard let regex = try? ExtendedRegex("^listening on [0-9]+$") else { Issue.record("the pattern compiles"); return }
        let record = try launcher("sleep 0.03; echo 'starting' >&2; echo 'listening on 8080'; sleep 30") {
            $0.readiness = .output(regex)
            $0.grace = 1
        }.launch(index: 1)
        #expect(record.total >= 0.03 && record.total < 10, "ended at ready, not after the 30 s sleep")
        #expect(record.marks.first { $0.name == "interactive" }?.time == record.total)
        #expect(record.process?.exitStatus == nil, "stopped by launchprof")
    }

    @Test func readyWhenFileAndTheWholeGroupIsReaped() throws {
        let file = temporaryPath("ready")
        let pidFile = temporaryPath("pid")
        defer { unlink(file); unlink(pidFile) }
        // A child that ignores SIGTERM: the grace period ends in SIGKILL for the whole group.
        let script = "trap '' TERM; (trap '' TERM; echo $$ > /dev/null; sleep 30) & echo $! > '\(pidFile)'; sleep 0.02; touch '\(file)'; sleep 30"
        let start = MonotonicClock.nanoseconds()
        let record = try launcher(script) {
            $0.readiness = .file(file)
            $0.grace = 0.2
        }.launch(index: 1)
        #expect(record.total >= 0.02 && record.total < 10)
        #expect(Double(MonotonicClock.nanoseconds() - start) / 1e9 < 10, "SIGKILL after the grace period, not the 30 s sleep")
        let child = Int32(try FileIO.readText(pidFile).split(separator: "\n").first.flatMap { Int32($0) } ?? 0)
        #expect(child > 0 && kill(child, 0) != 0, "the background child is gone too")
    }

    @Test func readyWhenPortAcceptsAConnection() throws {
        let port = UInt16.random(in: 20_000...60_000)
        let server =
            "import socket, time; time.sleep(0.05); s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', \(port))); s.listen(); time.sleep(30)"
        let record = try launcher("exec python3 -c \"\(server)\"") {
            $0.readiness = .port(port)
            $0.grace = 1
        }.launch(index: 1)
        #expect(record.total >= 0.05 && record.total < 10)
        #expect(!Readiness.accepts(port: port), "the server was stopped")
    }

    @Test func aConditionThatHoldsBeforeTheLaunchIsAnError() throws {
        let file = temporaryPath("exists")
        _ = try FileIO.writeAtomically("x", to: file)
        defer { unlink(file) }
        #expect(throws: RunnerError.readyBeforeLaunch(.file(file))) {
            try launcher("sleep 1") { $0.readiness = .file(file) }.launch(index: 1)
        }
    }

    @Test func exitingBeforeReadyIsAnError() {
        let failure = #expect(throws: RunnerError.self) {
            try launcher("exit 0") { $0.readiness = .file("/nonexistent/never") }.launch(index: 1)
        }
        #expect(failure?.message(subject: "srv") == "srv exited with status 0 before it was ready (waiting for: file /nonexistent/never exists)")
    }

    @Test func prepareAndCleanupRunAroundEachLaunchUntimed() throws {
        let log = temporaryPath("log")
        defer { unlink(log) }
        var session = LaunchSession(launcher: launcher("echo run >> '\(log)'"), runs: 2, warmup: 1)
        session.prepare = launcher("echo prepare >> '\(log)'; sleep 1")
        session.cleanup = launcher("echo cleanup >> '\(log)'")
        let runs = try session.run()
        #expect(runs.count == 2)
        // A loaded machine can make a shell's start take a tenth of a second, never the prepare step's second.
        #expect(runs.allSatisfy { $0.total < 1 }, "the prepare step's 1 s is not in the run: \(runs.map(\.total))")
        #expect(try FileIO.readText(log) == String(repeating: "prepare\nrun\ncleanup\n", count: 3))
        session.prepare = launcher("exit 4")
        let failure = #expect(throws: RunnerError.self) { try session.run() }
        #expect(failure?.description.hasPrefix("--prepare 'exit 4' exited with status 4") == true)
    }
}

@Suite struct ExtendedRegexTests {
    @Test func posixExtendedSyntax() throws {
        let regex = try ExtendedRegex("^(ready|listening) on [0-9]+")
        #expect(regex.matches(Array("listening on 80".utf8)))
        #expect(!regex.matches(Array("not listening on 80".utf8)))
        #expect(try ExtendedRegex("a.c").matches(Array("xxabcxx".utf8)))
    }

    @Test func badPatternsAreErrorsNotCrashes() {
        for pattern in ["(", "a{2,1}", "[z-a]", String(repeating: "a", count: 5000), "a\u{0}b"] {
            #expect(throws: RunnerError.self) { _ = try ExtendedRegex(pattern) }
        }
    }

    @Test func linesWithNulAndInvalidUTF8AreMatchedSafely() throws {
        let regex = try ExtendedRegex("ok")
        #expect(regex.matches([0x6F, 0x6B, 0x00, 0xFF]))
        #expect(!regex.matches([0x00, 0x6F, 0x6B]), "the text ends at a NUL, as for grep")
    }
}

@Suite struct SpawnerReportTests {
    @Test func linesSplitAcrossReadsAndGarbageIgnored() {
        var report = SpawnerReport()
        report.consume(ArraySlice(Array("spawn 12".utf8)))
        #expect(report.spawnReading == nil)
        report.consume(ArraySlice(Array("34\nnonsense here\nexit 99 256 1500 20 2048\n".utf8)))
        #expect(report.spawnReading == 1234)
        #expect(report.exit?.reading == 99 && report.exit?.status == 256 && report.exit?.userMicroseconds == 1500 && report.exit?.peakKibibytes == 2048)
        report.consume(ArraySlice(Array("exit 1 2 -3 4 5\nerror 2\n".utf8)))
        #expect(report.exit?.reading == 99, "a negative time is refused")
        #expect(report.spawnError == 2)
    }
}

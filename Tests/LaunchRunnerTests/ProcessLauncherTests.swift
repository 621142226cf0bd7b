import LaunchprofTestSupport
import Testing
@testable import LaunchRunner
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// Launches small shell scripts that speak (or break) the protocol on fd 3.
@Suite struct ProcessLauncherTests {
    func shell(_ script: String, timeout: Double = 10) -> ProcessLauncher {
        ProcessLauncher(executable: "/bin/sh", arguments: ["-c", script], timeout: timeout)
    }

    /// A file the test's script appends its processes' ids to (`echo $$ >> FILE`), in a new directory.
    func pidFile() throws -> String {
        try TemporaryDirectory.make(prefix: "pids") + "/pids"
    }

    /// The processes listed in `file` that are still this process's zombies: launched, ended and never
    /// reaped. Only the run's own processes are looked at: other tests run in parallel, and this process
    /// (the launcher's child subreaper) may hold their children for a moment.
    func unreaped(_ file: String) throws -> [Int] {
        defer { FileIO.removeTree(FileIO.parentDirectory(of: file)) }
        let pids = try FileIO.readText(file).split(separator: "\n").compactMap { Int($0) }
        #expect(!pids.isEmpty, "the script wrote no process id")
        return pids.filter { pid in
            guard let stat = try? FileIO.readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] == "Z" && Int(fields[1]) == Int(getpid())
        }
    }

    @Test func aWellBehavedProgramGivesItsPhasesTimedFromTheSpawn() throws {
        let run = try shell(
            """
            printf 'launchprof 1\\nmain -\\nbegin - 0 cpu work\\nbegin - 0 io inner part\\nend - 0 inner part\\nstats 0 rss=1000 growth=10\\nend - 0 work\\ncount 3 things\\ncount 2 things\\nmark - 0 ready\\ndeferred later\\ndone -\\n' >&3
            """
        ).launch(index: 1)
        #expect(run.phases.map(\.name) == ["process start", "work", "inner part"])
        #expect(run.phases.map(\.parent) == [nil, nil, 1])
        #expect(run.phases[0].duration > 0)
        #expect(run.phases[2].residentBytes == 1000)
        #expect(run.counter("things") == 5)
        #expect(run.marks.map(\.name) == ["ready"])
        #expect(run.deferred == ["later"])
        #expect(run.total >= run.phases[1].end)
        #expect(run.pid != nil)
        #expect(run.peakResidentBytes != nil)
    }

    @Test func aCrashNamesTheSignalAndThePhase() throws {
        let pids = try pidFile()
        do {
            _ = try shell("echo $$ >> '\(pids)'; printf 'launchprof 1\\nbegin - 0 cpu drawing\\n' >&3; kill -SEGV $$").launch(index: 1)
            Issue.record("a crash must fail")
        } catch {
            #expect(error == .crashed(signal: SIGSEGV, inPhase: "drawing", stderr: ""))
            #expect(error.description == "the app crashed: killed by SIGSEGV (signal 11) during 'drawing'")
        }
        #expect(try unreaped(pids).isEmpty)
    }

    @Test func aHangIsKilledAtTheTimeoutAndReaped() throws {
        let pids = try pidFile()
        let start = MonotonicClock.nanoseconds()
        do {
            // The shell and its sleep: both are killed and reaped.
            let script = "echo $$ >> '\(pids)'; printf 'launchprof 1\\nbegin - 0 io loading themes\\n' >&3; sleep 30 & echo $! >> '\(pids)'; wait"
            _ = try shell(script, timeout: 0.5).launch(index: 1)
            Issue.record("a hang must time out")
        } catch {
            #expect(error == .timedOut(seconds: 0.5, inPhase: "loading themes"))
            #expect(error.description.contains("did not finish within the 0.5 s timeout"))
        }
        let elapsed = LaunchClock.seconds(MonotonicClock.nanoseconds() - start)
        #expect(elapsed < 5)
        #expect(try unreaped(pids).isEmpty)
    }

    @Test func garbageNamesTheLine() {
        do {
            _ = try shell("printf 'launchprof 1\\nmain 5\\nhello world\\n' >&3").launch(index: 1)
            Issue.record("garbage must fail")
        } catch {
            #expect(
                error.description
                    == "the app sent garbage: protocol line 3: unknown line 'hello world' (expected begin, end, mark, count, stats, deferred, launched, background, tap, tap-lost, peak, main or done)"
            )
        }
    }

    @Test func aFailingExitRelaysWhatTheAppSaid() {
        do {
            _ = try shell("echo 'theme.xml:3:4: opening and ending tag mismatch' >&2; exit 2").launch(index: 1)
            Issue.record("a failing app must fail")
        } catch {
            #expect(error == .exited(status: 2, stderr: "theme.xml:3:4: opening and ending tag mismatch\n"))
        }
    }

    @Test func anUnfinishedReportIsIncomplete() {
        #expect(throws: RunnerError.incomplete(lines: 2)) {
            try shell("printf 'launchprof 1\\nmain 1\\n' >&3").launch(index: 1)
        }
    }

    @Test func aMissingExecutableCannotBeSpawned() {
        do {
            _ = try ProcessLauncher(executable: "/nonexistent/app", arguments: []).launch(index: 1)
            Issue.record("a missing executable must fail")
        } catch {
            #expect(error.description.hasPrefix("could not start /nonexistent/app: "))
        }
    }

    @Test func sessionRunsEachLaunchAsANewProcessAndDropsWarmups() throws {
        let session = LaunchSession(
            launcher: shell("printf 'launchprof 1\\nmain -\\nbegin - 0 cpu a\\nend - 0 a\\ndone -\\n' >&3"),
            runs: 3, warmup: 2)
        let runs = try session.run()
        #expect(runs.count == 3)
        #expect(runs.map(\.index) == [1, 2, 3])
        #expect(Set(runs.compactMap(\.pid)).count == 3)
    }
}

/// A complete report without a mark the launcher expects fails the run; one with it passes.
@Suite struct ExpectedMarkTests {
    func launch(_ lines: String, expecting marks: [String]) -> Result<RunRecord, RunnerError> {
        var launcher = ProcessLauncher(executable: "/bin/sh", arguments: ["-c", "printf '\(lines)' >&3"], timeout: 30)
        launcher.expectedMarks = marks
        do { return .success(try launcher.launch(index: 1)) } catch { return .failure(error) }
    }

    static let header = #"launchprof 1\nmain -\nbegin - 0 cpu work\nend - 0 work\n"#

    @Test func aMissingMarkFailsTheRunNamingIt() {
        let result = launch(Self.header + #"mark - 0 first frame\ndone -\n"#, expecting: ["first frame", "interactive"])
        guard case .failure(let failure) = result else { Issue.record("the run must fail"); return }
        #expect(failure == .missingMark("interactive"))
        #expect(failure.description.contains("'interactive' mark"))
    }

    @Test func everyExpectedMarkPresentPasses() throws {
        let run = try launch(Self.header + #"mark - 0 first frame\nmark - 0 interactive\ndone -\n"#, expecting: ["first frame", "interactive"]).get()
        #expect(run.marks.map(\.name) == ["first frame", "interactive"])
    }
}

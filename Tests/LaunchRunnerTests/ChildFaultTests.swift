import LaunchprofTestSupport
import Foundation
import Testing
@testable import LaunchRunner
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// A launched program that misbehaves towards its pipes always ends with the documented error, never
/// at the timeout when it has exited, and leaves nothing of its process group behind.
@Suite(.serialized) struct ChildFaultTests {
    /// `script` run by `/bin/sh`, which first writes its pid (its process group) to a file.
    func launch(
        _ script: String, timeout: Double = 30, byteLimit: Int = ProcessLauncher.maxProtocolBytes,
        recordLimit: Int = ProcessLauncher.maxProtocolRecords
    ) -> (Result<RunRecord, RunnerError>, pid_t?) {
        let pidFile = TemporaryDirectory.uniquePath("childfault")
        defer { unlink(pidFile) }
        var launcher = ProcessLauncher(executable: "/bin/sh", arguments: ["-c", "echo $$ > '\(pidFile)'\n" + script], timeout: timeout)
        launcher.protocolByteLimit = byteLimit
        launcher.protocolRecordLimit = recordLimit
        let result: Result<RunRecord, RunnerError>
        do { result = .success(try launcher.launch(index: 1)) } catch { result = .failure(error) }
        let pid = (try? FileIO.readText(pidFile)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (result, pid)
    }

    /// Whether no process of the group `pgid` is left, not even a zombie. The launcher has killed
    /// the group when it returns; a grandchild it orphaned is reaped by init, which may take a moment
    /// on a loaded machine, so the group has up to 5 s to disappear.
    func groupIsGone(_ pgid: pid_t?) -> Bool {
        guard let pgid, pgid > 0 else { return false }
        let deadline = MonotonicClock.nanoseconds() + 5_000_000_000
        while MonotonicClock.nanoseconds() < deadline {
            if kill(-pgid, 0) == -1 && errno == ESRCH { return true }
            usleep(10_000)
        }
        return false
    }

    static let report = #"printf 'launchprof 1\nmain -\nbegin - 0 cpu work\nend - 0 work\ndone -\n' >&3"#

    @Test func aGrandchildHoldingThePipesDoesNotHoldTheRunAfterTheProgramExits() throws {
        let (result, pid) = launch("\(Self.report)\nsleep 60 &\nexit 0")
        let run = try result.get()  // Not .timedOut: the exit was noticed while the pipes stayed open.
        #expect(run.phases.map(\.name) == ["process start", "work"])
        #expect(groupIsGone(pid))
    }

    @Test func aGrandchildHoldingThePipesAfterAnExitWithoutDoneIsIncomplete() {
        let (result, pid) = launch("printf 'launchprof 1\\nbegin - 0 cpu work\\n' >&3\nsleep 60 &\nexit 0")
        #expect(result.failure == .incomplete(lines: 2))
        #expect(groupIsGone(pid))
    }

    @Test func aCrashWithAGrandchildHoldingThePipesIsACrash() {
        let (result, pid) = launch("printf 'launchprof 1\\nbegin - 0 cpu drawing\\n' >&3\nsleep 60 &\nkill -SEGV $$")
        #expect(result.failure == .crashed(signal: SIGSEGV, inPhase: "drawing", stderr: ""))
        #expect(groupIsGone(pid))
    }

    @Test func closingTheProtocolEarlyIsIncomplete() {
        let (result, pid) = launch("printf 'launchprof 1\\n' >&3\nexec 3>&-\nsleep 0.1\nexit 0")
        #expect(result.failure == .incomplete(lines: 1))
        #expect(groupIsGone(pid))
    }

    @Test func exitingZeroWithoutDoneIsIncomplete() {
        let (result, pid) = launch("printf 'launchprof 1\\nmain -\\n' >&3")
        #expect(result.failure == .incomplete(lines: 2))
        #expect(groupIsGone(pid))
    }

    @Test func theDocumentedLimits() {
        #expect(ProcessLauncher.maxProtocolBytes == 64 * 1_048_576)
        #expect(ProcessLauncher.maxProtocolRecords == 1_000_000)
        #expect(ProcessLauncher(executable: "/bin/true", arguments: []).protocolByteLimit == ProcessLauncher.maxProtocolBytes)
    }

    @Test func aFloodOfBytesIsStoppedAtTheLimit() {
        // Valid extension lines of 60,000 bytes, for ever.
        let (result, pid) = launch(
            "printf 'launchprof 1\\n' >&3\nline=\"x-pad $(head -c 60000 /dev/zero | tr '\\0' a)\"\nwhile :; do printf '%s\\n' \"$line\"; done >&3",
            byteLimit: 4 << 20)
        #expect(result.failure == .overLimit("more than 4 MiB of protocol output"))
        #expect(result.failure?.description.contains("docs/limits.md") == true)
        #expect(groupIsGone(pid))
    }

    /// The real limit, end to end.
    @Test func aFloodOfRecordsIsStoppedAtTheLimit() {
        // A million lines take seconds; on a loaded machine tens of them: the timeout must not win.
        let (result, pid) = launch("printf 'launchprof 1\\n' >&3\nyes 'count 1 x' >&3", timeout: 300)
        #expect(result.failure == .overLimit("more than 1000000 begin, mark, count and deferred lines"))
        #expect(groupIsGone(pid))
    }

    @Test func aFloodOfBeginLinesIsStoppedAtTheLimit() {
        let (result, pid) = launch("printf 'launchprof 1\\n' >&3\nyes \"$(printf 'begin 5 0 cpu x\\nend 6 0 x')\" >&3", recordLimit: 50_000)
        #expect(result.failure == .overLimit("more than 50000 begin, mark, count and deferred lines"))
        #expect(groupIsGone(pid))
    }

    @Test func aHangIsKilledWithItsGrandchildren() {
        let (result, pid) = launch("printf 'launchprof 1\\nbegin - 0 io waiting\\n' >&3\nsleep 60 &\nsleep 60", timeout: 0.5)
        #expect(result.failure == .timedOut(seconds: 0.5, inPhase: "waiting"))
        #expect(groupIsGone(pid))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Descendants that leave the program's process group (`setsid`, `setpgid`) are killed too.
@Suite(.serialized) struct EscapedProcessTests {
    /// Runs `script` (which writes the escaped process's pid to `$PIDFILE`), then returns that pid.
    func launchEscaping(_ script: String) throws -> pid_t {
        let pidFile = TemporaryDirectory.uniquePath("escaped")
        defer { unlink(pidFile) }
        // The run ends once the escaping process has written its pid (polled: a loaded machine may
        // take seconds to start python), never on a fixed sleep.
        let waitForPid = #"i=0; while [ ! -s "$PIDFILE" ] && [ $i -lt 500 ]; do sleep 0.05; i=$((i+1)); done"#
        let launcher = ProcessLauncher(
            executable: "/bin/sh",
            arguments: ["-c", "export PIDFILE='\(pidFile)'\n" + script + "\n" + waitForPid + "\n" + ChildFaultTests.report], timeout: 60)
        _ = try launcher.launch(index: 1)
        let text = try FileIO.readText(pidFile)
        return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) == -1 && errno == ESRCH }

    @Test func aSetsidDescendantIsKilledWhenTheRunEnds() throws {
        // setsid forks when the shell is a group leader; the pid file holds the sleeping process.
        let pid = try launchEscaping(#"setsid sh -c 'echo $$ > "$PIDFILE"; exec sleep 60' </dev/null >/dev/null 2>&1 3>&- &"#)
        #expect(isGone(pid))
    }

    @Test func aDescendantInAGroupOfItsOwnIsKilledWhenTheRunEnds() throws {
        let pid = try launchEscaping(
            #"python3 -c 'import os,sys,time; os.setpgid(0,0); open(sys.argv[1],"w").write(str(os.getpid())); time.sleep(60)' "$PIDFILE" </dev/null >/dev/null 2>&1 3>&- &"#
        )
        #expect(isGone(pid))
    }

    @Test func theChildrenOfAnEscapedDescendantAreReapedNotLeftAsZombies() throws {
        // The escaped process's own child dies with its group and is re-parented here dead: with
        // an empty environment, only its group (killed) or its state (a zombie) tells it is the run's.
        let child = try launchEscaping(#"setsid sh -c 'sleep 60 & echo $! > "$PIDFILE"; wait' </dev/null >/dev/null 2>&1 3>&- &"#)
        #expect(isGone(child), "\(child) is left (a zombie still answers kill 0)")
    }

    @Test func aChildThisProcessStartedInAnotherGroupIsLeftAlone() throws {
        // Started by "someone else" in this process, in a session of its own, without a run's token.
        var pid: pid_t = 0
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/sleep", nil, &attributes, argv, environ) == 0)
        defer { kill(pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0) }
        _ = try launchEscaping(#"setsid sh -c 'echo $$ > "$PIDFILE"; exec sleep 60' </dev/null >/dev/null 2>&1 3>&- &"#)
        #expect(kill(pid, 0) == 0, "a sweep must not kill a child it did not launch")
    }

    @Test func statLinesAreReadAfterTheLastParenthesis() {
        let stat = EscapedProcessReaper.parseStat("42 (a) b (c) S 7 9 9 0")
        #expect(stat.map { ($0.parent, $0.group) } ?? (0, 0) == (7, 9))
        #expect(stat?.state == "S")
        #expect(EscapedProcessReaper.parseStat("garbage") == nil)
    }
}

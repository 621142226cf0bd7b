import LaunchprofTestSupport
import Testing
@testable import LaunchRunner
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// The interleaved pairs of `check --runs auto`: order, budget and the looks, with two tiny shell
/// programs that note each launch in a shared file.
@Suite struct AdaptiveSessionTests {
    /// A side that appends `letter` to `log` and then speaks the shortest valid protocol.
    func side(_ letter: String, log: String, warmup: Int = 0) -> LaunchSession {
        let script = "printf '\(letter)' >> '\(log)'; printf 'launchprof 1\\nmain -\\nbegin - 0 cpu work\\nend - 0 work\\ndone -\\n' >&3"
        return LaunchSession(launcher: ProcessLauncher(executable: "/bin/sh", arguments: ["-c", script], timeout: 10), runs: 0, warmup: warmup)
    }

    func temporaryLog() -> String {
        TemporaryDirectory.uniquePath("adaptive.log")
    }

    @Test func pairsAlternateWhoGoesFirstAndStopWhenTheRuleSaysSo() throws {
        let log = temporaryLog()
        defer { unlink(log) }
        let session = AdaptiveSession(a: side("A", log: log, warmup: 1), b: side("B", log: log), maxPairs: 50, maxSeconds: 600)
        var seen: [Int] = []
        let runs = try session.run { look in
            seen.append(look.pairs)
            #expect(look.a.count == look.b.count)
            #expect(!look.isLast)
            return look.pairs == 3
        }
        #expect(seen == [1, 2, 3], "a look after every pair")
        #expect(runs.stop == .decided)
        #expect(runs.a.map(\.index) == [1, 2, 3] && runs.b.map(\.index) == [1, 2, 3])
        // One warm-up round (A B), then A B, B A, A B.
        #expect(try FileIO.readText(log) == "AB" + "AB" + "BA" + "AB")
    }

    @Test func theRunBudgetEndsWithOneLastLook() throws {
        let log = temporaryLog()
        defer { unlink(log) }
        let session = AdaptiveSession(a: side("A", log: log), b: side("B", log: log), maxPairs: 4, maxSeconds: 600)
        var lastLooks: [Int] = []
        let runs = try session.run { look in
            if look.isLast { lastLooks.append(look.pairs) }
            return false
        }
        #expect(runs.stop == .maxPairs)
        #expect(runs.a.count == 4 && runs.b.count == 4)
        #expect(lastLooks == [4])
    }

    @Test func theTimeBudgetFinishesThePairInFlight() throws {
        let log = temporaryLog()
        defer { unlink(log) }
        let session = AdaptiveSession(a: side("A", log: log), b: side("B", log: log), maxPairs: 200, maxSeconds: 0)
        let runs = try session.run { look in
            #expect(look.isLast)
            return false
        }
        #expect(runs.stop == .maxTime)
        #expect(runs.a.count == 1 && runs.b.count == 1, "never half a pair")
    }

    @Test func aFailedLaunchEndsTheSessionWithItsFailure() {
        let crashing = LaunchSession(launcher: ProcessLauncher(executable: "/bin/sh", arguments: ["-c", "kill -SEGV $$"], timeout: 10), runs: 0, warmup: 0)
        let log = temporaryLog()
        defer { unlink(log) }
        #expect(throws: RunnerError.self) {
            _ = try AdaptiveSession(a: side("A", log: log), b: crashing, maxPairs: 10, maxSeconds: 600).run { _ in false }
        }
    }
}

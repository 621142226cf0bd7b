import LaunchCore
import LaunchRunner
import LaunchprofTestSupport
import Testing

/// Sessions scheduled over the executor double: what runs, in which order, what is kept, without
/// spawning a process.
@Suite struct ScriptedSessionTests {
    func launcher(_ name: String) -> ProcessLauncher {
        ProcessLauncher(executable: "/bin/false", arguments: [name], timeout: 1)
    }

    @Test func warmUpsRunFirstAndAreNotKept() throws {
        let executor = ScriptedExecutor { _, count in 0.010 + Double(count) * 0.001 }
        var session = LaunchSession(launcher: launcher("app"), runs: 3, warmup: 2)
        session.executor = executor
        let records = try session.run()
        #expect(records.map(\.index) == [1, 2, 3])
        // The warm-ups were the first two launches (totals 10 and 11 ms); the kept ones come after.
        #expect(records.map { ($0.total * 1000).rounded() } == [12, 13, 14])
        #expect(executor.launches.map(\.index) == [0, 0, 1, 2, 3])
    }

    @Test func prepareAndCleanupGoThroughTheExecutorAroundEachRun() throws {
        let executor = ScriptedExecutor { _, _ in 0.01 }
        var session = LaunchSession(launcher: launcher("app"), runs: 2, warmup: 0)
        session.prepare = launcher("prepare")
        session.cleanup = launcher("cleanup")
        session.executor = executor
        _ = try session.run()
        #expect(executor.launches.map(\.arguments) == [["prepare"], ["app"], ["cleanup"], ["prepare"], ["app"], ["cleanup"]])
    }

    @Test func interleavedSessionsAlternateWhichSideGoesFirst() throws {
        let executor = ScriptedExecutor { launcher, _ in launcher.arguments == ["a"] ? 0.01 : 0.02 }
        var a = LaunchSession(launcher: launcher("a"), runs: 2, warmup: 1)
        var b = LaunchSession(launcher: launcher("b"), runs: 2, warmup: 1)
        a.executor = executor
        b.executor = executor
        let runs = try LaunchSession.interleaved(a, b)
        #expect(executor.launches.map(\.arguments).map(\.[0]) == ["a", "b", "b", "a", "a", "b"])
        #expect(runs.a.map(\.total) == [0.01, 0.01] && runs.b.map(\.total) == [0.02, 0.02])
    }

    @Test func aFailedLaunchEndsTheSessionWithItsError() {
        let executor = ScriptedExecutor { launcher, index, count throws(RunnerError) in
            if count == 1 { throw .spawnFailed(executable: launcher.executable, reason: "scripted") }
            return ScriptedExecutor.record(index: index, total: 0.01)
        }
        var session = LaunchSession(launcher: launcher("app"), runs: 5, warmup: 0)
        session.executor = executor
        #expect(throws: RunnerError.self) { try session.run() }
        #expect(executor.launches.count == 2)
    }

    @Test func anAdaptiveSessionStopsWhenTheRuleSaysSo() throws {
        let executor = ScriptedExecutor { _, _ in 0.01 }
        var a = LaunchSession(launcher: launcher("a"), runs: 0, warmup: 0)
        var b = LaunchSession(launcher: launcher("b"), runs: 0, warmup: 0)
        a.executor = executor
        b.executor = executor
        let session = AdaptiveSession(a: a, b: b, maxPairs: 50, maxSeconds: 3600)
        let outcome = try session.run { look in look.pairs >= 4 }
        #expect(outcome.stop == .decided)
        #expect(outcome.a.count == 4 && outcome.b.count == 4)
        #expect(executor.launches.count == 8)
        let capped = try AdaptiveSession(a: a, b: b, maxPairs: 3, maxSeconds: 3600).run { _ in false }
        #expect(capped.stop == .maxPairs && capped.a.count == 3)
    }
}

import ArgumentParser
import Foundation
import LaunchCore
import LaunchRunner
import LaunchStats
import LaunchprofTestSupport
import Testing

@testable import LaunchprofCLI

/// The CLI's launch logic through the executor double: run counts, warm-ups, `--runs auto`
/// stopping, refusals and failures, with no process spawned (`--app /bin/true` is never run).
@Suite(.temporaryDirectory) struct PlanRunnerTests {
    /// A built-in app plan of its own manifest (named `side`), parsed as `run` parses its options.
    func plan(_ side: String, _ arguments: [String] = []) throws -> AppLaunchPlan {
        let directory = TemporaryDirectory.path("plan-runner/\(side)")
        let manifest = try FixtureManifest.write(name: side, in: directory)
        let options = try ProfileOptions.parse(
            ["--manifest", manifest, "--app", "/bin/true", "--snapshot", directory + "/s.png", "--quiet"] + arguments)
        return try AppLaunchPlan(options: options)
    }

    /// Totals of `milliseconds` with a small repeatable spread (±1%), as real launches have.
    static func executor(milliseconds: @escaping @Sendable (ProcessLauncher) -> Double) -> ScriptedExecutor {
        ScriptedExecutor { launcher, count in
            milliseconds(launcher) / 1000 * (1 + 0.01 * sin(Double(count) * 1.7))
        }
    }

    @Test func aRunMakesTheWarmUpsThenTheMeasuredRuns() throws {
        let profile = try plan("fixed", ["--runs", "4", "--warmup", "2"])
        let executor = Self.executor { _ in 10 }
        let result = try PlanRunner(executor: executor, quiet: true).run(profile)
        #expect(executor.launches.map(\.index) == [0, 0, 1, 2, 3, 4])
        #expect(result.runs.count == 4)
        #expect(result.configuration?.runs == 4 && result.configuration?.warmup == 2)
        #expect(result.manifest.name == "fixed")
        #expect(profile.target.resultTarget == ResultTarget(result))
    }

    @Test func withoutRunsARunMakesTen() throws {
        let profile = try plan("default", ["--warmup", "0"])
        let executor = Self.executor { _ in 10 }
        let result = try PlanRunner(executor: executor, quiet: true).run(profile)
        #expect(result.runs.count == 10 && executor.launches.count == 10)
        // Instruction counts repeat: two runs by default.
        #expect(profile.options.launch.fixedRuns(metric: .instructions) == 2)
        #expect(profile.options.launch.runTimeout(metric: .instructions) == 600 && profile.timeout == 60)
    }

    @Test func fixedPairsAlternateTheSides() throws {
        let a = try plan("base", ["--runs", "3", "--warmup", "1"])
        let b = try plan("head", ["--runs", "3", "--warmup", "1"])
        let executor = Self.executor { _ in 10 }
        let outcome = try PlanRunner(executor: executor, quiet: true).pair(baseline: a, candidate: b, schedule: .fixed)
        #expect(outcome.sequential == nil)
        #expect(outcome.baseline.runs.count == 3 && outcome.candidate.runs.count == 3)
        let sides = executor.launches.map { $0.arguments.contains { $0.hasSuffix("base/manifest.json") } ? "a" : "b" }
        #expect(sides == ["a", "b", "b", "a", "a", "b", "b", "a"])
    }

    @Test func autoStopsEarlyOnAClearRegression() throws {
        let a = try plan("fast", ["--runs", "auto", "--warmup", "0"])
        let b = try plan("slow", ["--runs", "auto", "--warmup", "0"])
        let executor = Self.executor { $0.arguments.contains { $0.hasSuffix("slow/manifest.json") } ? 20 : 10 }
        let budget = try AdaptiveOptions.parse(["--max-runs", "200"])
        let schedule = a.options.launch.pairSchedule(budget, Thresholds(percent: 5))
        let outcome = try PlanRunner(executor: executor, quiet: true).pair(baseline: a, candidate: b, schedule: schedule)
        let sequential = try #require(outcome.sequential)
        #expect(sequential.stop == .decided)
        #expect(sequential.pairs < 50, "a 2x slower candidate is decided in a few pairs, not \(sequential.pairs)")
        #expect(sequential.comparison.total.verdict == .slower)
        #expect(executor.launches.count == 2 * sequential.pairs)
    }

    @Test func autoIsCheckDefaultOnlyWhereTheCommandSaysSo() throws {
        let options = try LaunchOptions.parse([])
        let budget = try AdaptiveOptions.parse([])
        guard case .fixed = options.pairSchedule(budget, Thresholds(percent: 5)) else {
            Issue.record("without --runs, a comparison of exec or compare has fixed runs")
            return
        }
        guard case .auto = options.pairSchedule(budget, Thresholds(percent: 5), defaultAuto: true) else {
            Issue.record("without --runs, check chooses its runs")
            return
        }
    }

    @Test func againstAStoredBaselineAutoMatchesItsRunsWithinTheBudget() throws {
        let auto = try LaunchOptions.parse([])
        #expect(auto.runs(againstStored: 30, maxRuns: 200, metric: .time) == 30)
        #expect(auto.runs(againstStored: 3, maxRuns: 200, metric: .time) == 10)
        #expect(auto.runs(againstStored: 500, maxRuns: 200, metric: .time) == 200)
        #expect(auto.runs(againstStored: nil, maxRuns: 200, metric: .time) == 10)
        let fixed = try LaunchOptions.parse(["--runs", "7"])
        #expect(fixed.runs(againstStored: 30, maxRuns: 200, metric: .time) == 7)
    }

    @Test func aFailedLaunchIsAnInputErrorNamingIt() throws {
        let profile = try plan("failing", ["--runs", "3", "--warmup", "0"])
        let executor = ScriptedExecutor { launcher, index, count throws(RunnerError) in
            if count == 1 { throw .spawnFailed(executable: launcher.executable, reason: "scripted failure") }
            return ScriptedExecutor.record(index: index, total: 0.01)
        }
        #expect {
            try PlanRunner(executor: executor, quiet: true).run(profile)
        } throws: { error in
            "\(error)".contains("scripted failure")
        }
        #expect(executor.launches.count == 2)
    }

    @Test func runsAutoOutsideAComparisonIsRefusedWithOneMessage() {
        for (command, arguments) in [("run", ["--runs", "auto"]), ("record", ["--runs", "auto"]), ("exec", ["--runs", "auto", "--", "/bin/true"])] {
            let message = Launchprof.message(for: Self.parseError([command] + arguments))
            #expect(message.contains("--runs auto chooses how many runs a comparison needs"), "\(command): \(message)")
        }
    }

    @Test func whatInstructionsCannotCountIsRefusedWithOneMessageForEveryTarget() throws {
        let exec = Launchprof.message(for: Self.parseError(["exec", "--metric", "instructions", "--tier", "iphone-3gs", "--", "/bin/true"]))
        #expect(exec.contains(LaunchRefusal.tierWithInstructions.description), "\(exec)")
        let options = try ProfileOptions.parse(["--app", "/bin/true", "--tier", "iphone-3gs", "--quiet"])
        #expect {
            try AppLaunchPlan(options: options, metric: .instructions)
        } throws: { error in
            guard case .refused(.tierWithInstructions) = error as? InputError else { return false }
            return true
        }
    }

    @Test func theThrottleIsOneOfItsMechanisms() throws {
        let message = Launchprof.message(for: Self.parseError(["exec", "--tier", "iphone-3gs", "--throttle", "cgroups", "--", "/bin/true"]))
        #expect(message.contains("--throttle must be cgroup-v1, cgroup-v2 or signals, not") && message.contains("cgroups"), "\(message)")
        let command = try Launchprof.parseAsRoot(["exec", "--tier", "iphone-3gs", "--throttle", "signals", "--", "/bin/true"])
        #expect((command as? ExecCommand)?.options.throttle == .signals)
    }

    @Test func theTestHooksAreHiddenButParsed() throws {
        let options = try ProfileOptions.parse(["--seed", "7", "--force-decode-race"])
        #expect(options.hooks.seed == 7 && options.hooks.forceDecodeRace)
        #expect(!ProfileOptions.helpMessage().contains("--force-decode-race"))
        #expect(ProfileOptions.helpMessage().contains("--tier"))
    }

    static func parseError(_ arguments: [String]) -> Error {
        do {
            _ = try Launchprof.parseAsRoot(arguments)
            return CancellationError()
        } catch { return error }
    }
}

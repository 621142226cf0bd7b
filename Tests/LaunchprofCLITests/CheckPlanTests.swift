import ArgumentParser
import LaunchCore
import LaunchResults
import LaunchprofTestSupport
import Testing

@testable import LaunchprofCLI

/// `check`'s work (``CheckPlan``) as `check` parses it, through the executor double: the built-in app
/// (`--app /bin/true`, never run) on two manifests of its own, interleaved with `--baseline-manifest`.
@Suite(.temporaryDirectory) struct CheckPlanTests {
    static func plan(_ arguments: [String], _ executor: ScriptedExecutor) throws -> CheckPlan {
        let directory = TemporaryDirectory.path("check-plan")
        let base = try FixtureManifest.write(name: "base", in: directory + "/base")
        let head = try FixtureManifest.write(name: "head", in: directory + "/head")
        let sides = ["--baseline-manifest", base, "--manifest", head, "--app", "/bin/true", "--snapshot", directory + "/s.png", "--quiet"]
        let command = try #require(try Launchprof.parseAsRoot(["check"] + sides + arguments) as? CheckCommand)
        return command.plan(executor: executor)
    }

    /// The candidate (`head`'s manifest) `milliseconds` a launch, the baseline 10.
    static func sides(candidateMilliseconds: Double) -> ScriptedExecutor {
        PlanRunnerTests.executor { $0.arguments.contains { $0.hasSuffix("head/manifest.json") } ? candidateMilliseconds : 10 }
    }

    @Test func aSlowerCandidateFailsTheCheckAndItsResultIsWritten() throws {
        let output = TemporaryDirectory.path("check-plan/candidate.json")
        let slower = Self.sides(candidateMilliseconds: 20)
        #expect {
            try Self.plan(["--runs", "6", "--warmup", "0", "--output", output], slower).run()
        } throws: { error in
            (error as? ExitCode)?.rawValue == ExitStatus.regression
        }
        #expect(slower.launches.count == 12)
        let candidate = try ResultFile.read(output)
        #expect(candidate.manifest.name == "head" && candidate.runs.count == 6)
    }

    @Test func anEqualCandidatePasses() throws {
        let same = Self.sides(candidateMilliseconds: 10)
        try Self.plan(["--runs", "6", "--warmup", "0"], same).run()
        #expect(same.launches.count == 12)
    }

    @Test func withoutRunsTheInterleavedCheckStopsWhenTheSequentialRuleDecides() throws {
        let slower = Self.sides(candidateMilliseconds: 20)
        #expect(throws: ExitCode.self) { try Self.plan(["--warmup", "0"], slower).run() }
        #expect(slower.launches.count < 100, "a 2x slower candidate is decided in a few pairs, not \(slower.launches.count / 2)")
    }
}

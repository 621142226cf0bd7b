import ArgumentParser
import LaunchCore
import LaunchResults
import LaunchprofTestSupport
import Testing

@testable import LaunchprofCLI

/// `exec`'s work (``ExecPlan``) as `exec` parses it, through the executor double: no program is spawned.
@Suite(.temporaryDirectory) struct ExecPlanTests {
    static func plan(_ arguments: [String], _ executor: ScriptedExecutor) throws -> ExecPlan {
        let command = try #require(try Launchprof.parseAsRoot(["exec"] + arguments) as? ExecCommand)
        return command.plan(executor: executor)
    }

    @Test func aProgramIsRunAsTheOptionsSayAndItsResultWritten() throws {
        let output = TemporaryDirectory.path("program.json")
        let executor = ScriptedExecutor { _, _ in 0.01 }
        try Self.plan(["--runs", "3", "--warmup", "2", "--quiet", "--output", output, "--", "/bin/true"], executor).run()
        #expect(executor.launches.map(\.index) == [0, 0, 1, 2, 3])
        let result = try ResultFile.read(output)
        #expect(result.runs.count == 3 && result.configuration?.warmup == 2)
        #expect(result.manifest.name == "/bin/true")
        #expect(result.git != nil, "a result written to a file records its git state")
    }

    @Test func theResultIsStoredWithRecordOrStore() throws {
        let executor = ScriptedExecutor { _, _ in 0.01 }
        #expect(try Self.plan(["--", "/bin/true"], executor).history == nil)
        #expect(try Self.plan(["--record", "--", "/bin/true"], executor).history != nil)
        let store = TemporaryDirectory.path("h.sqlite")
        #expect(try Self.plan(["--store", store, "--", "/bin/true"], executor).history?.store == store)
    }

    /// `--baseline-command CMD` runs as `/bin/sh -c CMD`: the side whose launches name the shell.
    static func sides(candidateMilliseconds: Double) -> ScriptedExecutor {
        PlanRunnerTests.executor { launcher in launcher.arguments.contains("-c") ? 10 : candidateMilliseconds }
    }

    @Test func aSlowerCommandThanItsBaselineFailsWithFailOnRegression() throws {
        let arguments = ["--runs", "8", "--warmup", "0", "--quiet", "--format", "json", "--baseline-command", "true", "--fail-on-regression", "--", "/bin/true"]
        let slower = Self.sides(candidateMilliseconds: 20)
        #expect {
            try Self.plan(arguments, slower).run()
        } throws: { error in
            (error as? ExitCode)?.rawValue == ExitStatus.regression
        }
        // Interleaved, A B B A…, eight runs a side.
        let shell = slower.launches.map { $0.arguments.contains("-c") }
        #expect(shell.count == 16 && Array(shell.prefix(4)) == [true, false, false, true])
        let same = Self.sides(candidateMilliseconds: 10)
        try Self.plan(arguments, same).run()
        #expect(same.launches.count == 16)
    }
}

import LaunchCore
import LaunchExport
import LaunchResults
import LaunchprofTestSupport
import Testing

@testable import LaunchprofCLI

/// The CLI's one error carries a library's typed error to the edge, where it becomes text once.
@Suite(.temporaryDirectory) struct InputErrorTests {
    @Test func aLibraryErrorIsPrintedByItsOwnRenderer() {
        let refused = ResultError.notFileOrRevision(reference: "HEAD~9")
        #expect(InputError.library(refused).description == "HEAD~9: neither a result file nor a git revision")
    }

    /// Each problem's case carries its facts and is worded, once, as the messages were before they were typed.
    @Test func eachCaseIsWordedAsBefore() {
        #expect(InputError.history(.notARevision(since: "v1")).description == "--since v1: not a git revision")
        #expect(
            InputError.program(.nulCharacter(option: "--exec", argument: "a\u{0}b")).description
                == "--exec: an argument contains a NUL character ('\(PlainText.oneLine("a\u{0}b"))'), which no program can receive")
        #expect(InputError.check(.noRunsToCompare(label: "a.json")).description == "a.json: the result has no runs to compare")
        #expect(InputError.refused(.tierWithInstructions).description == LaunchRefusal.tierWithInstructions.description)
        #expect(
            InputError.about(subject: "r.json", ExportError.runOutOfRange(run: 9, runs: [1, 2, 3])).description
                == "r.json: --run 9 is out of range: the result has 3 runs, 1…3")
        #expect(
            InputError.usage(OptionRanges.runs.outOfRange(orAuto: true)).description == "--runs must be from 1 to 10000, or auto")
        #expect(InputError.usage(.unknownThrottle(argument: "cgroups")).description == "--throttle must be cgroup-v1, cgroup-v2 or signals, not 'cgroups'")
        #expect(
            InputError.bisect(.buildFailed(end: .bad, commit: "0123456789abcdef", BisectBuildFailure(status: 2, logTail: ["make: *** [all] Error 1"])))
                .description == "--build failed at the bad commit 0123456789: build failed (exit 2): make: *** [all] Error 1")
        #expect(
            InputError.bisect(.noSuchPhase(phase: "x", metric: .instructions, commit: "abc", phases: [])).description
                == "--phase x: no such phase with instructions at the good commit abc; its phases: none")
        #expect(InputError.program(.notOnPath(name: "tool")).description == "'tool': command not found on PATH")
        #expect(
            InputError.check(
                .metricMismatch(baseline: nil, baselineMetric: .time, candidate: "c.json", candidateMetric: .instructions)
            ).description
                == "the baseline was measured in time, but c.json in instructions: compare results of one metric (make both with or both without --metric instructions)"
        )
        let letters = "abcdefghijklm".map(String.init)
        #expect(
            InputError.history(.noSeries(phase: "p", storedPhases: letters)).description
                == "history trend: no series for phase 'p': stored phases: a, b, c, d, e, f, g, h, i, j, k, l, …")
    }

    /// A program the command cannot launch is refused before any run, by a case that names it.
    @Test func aProgramThatCannotRunIsRefusedByItsCase() throws {
        let directory = try TemporaryDirectory.make(prefix: "input-error-program")
        defer { TemporaryDirectory.remove(directory) }
        try FileIO.writeAtomically("", to: directory + "/plain")
        func problem(_ words: [String], shell: Bool = false) -> ProgramProblem? {
            do { _ = try ProgramCommand(words, shell: shell); return nil } catch {
                guard case .program(let problem) = error as? InputError else { return nil }
                return problem
            }
        }
        #expect(problem([]) == .noCommand(option: "the command"))
        #expect(problem(["no-such-command-xyz"]) == .notOnPath(name: "no-such-command-xyz"))
        #expect(problem([directory]) == .directory(name: directory))
        #expect(problem([directory + "/plain"]) == .notExecutable(name: directory + "/plain", reason: "Permission denied"))
        #expect(problem(["a", "b"], shell: true) == .shellWords(2))
    }

    @Test func reportOfAMissingFileThrowsTheResultReadersErrorToTheEdge() throws {
        let missing = TemporaryDirectory.path("missing.json")
        let command = try ReportCommand.parse([missing])
        #expect(throws: ResultError.cannotRead(path: missing, reason: "No such file or directory")) { try command.run() }
        // The edge prints it once, as an input error.
        let outcome = try CLI.run(["report", missing])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "launchprof: error: \(missing): cannot read: No such file or directory\n")
    }
}

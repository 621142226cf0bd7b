import LaunchCore
import LaunchExport
import LaunchResults
import LaunchprofTestSupport
import Testing

@testable import LaunchprofCLI

/// The CLI's one error carries a library's typed error to the edge, where it becomes text once.
@Suite struct InputErrorTests {
    @Test func aLibraryErrorKeepsItsTypeAndItsMessage() {
        let refused = ResultError.notFileOrRevision(reference: "HEAD~9")
        let wrapped = InputError(refused)
        guard case .library(let inner as ResultError) = wrapped else {
            Issue.record("not carried as a library error: \(wrapped)")
            return
        }
        #expect(inner == refused)
        #expect(wrapped.description == "HEAD~9: neither a result file nor a git revision")
    }

    @Test func anInputErrorIsNotWrappedTwice() {
        let once = InputError.option("--since", value: "v1", problem: "not a git revision")
        guard case .option(let option, let value, _) = InputError(once) else {
            Issue.record("wrapped again")
            return
        }
        #expect(option == "--since" && value == "v1")
    }

    @Test func eachCaseIsWordedAsBefore() {
        #expect(InputError.option("--since", value: "v1", problem: "not a git revision").description == "--since v1: not a git revision")
        #expect(InputError.option("--exec", value: nil, problem: "an argument contains a NUL").description == "--exec: an argument contains a NUL")
        #expect(InputError.file(path: "a.json", problem: "the result has no runs to compare").description == "a.json: the result has no runs to compare")
        #expect(InputError.refused(.tierWithInstructions).description == LaunchRefusal.tierWithInstructions.message)
        #expect(
            InputError.about(subject: "r.json", ExportError.runOutOfRange(run: 9, runs: [1, 2, 3])).description
                == "r.json: --run 9 is out of range: the result has 3 runs, 1…3")
    }

    @Test func reportOfAMissingFileThrowsTheResultReadersErrorToTheEdge() throws {
        let missing = TemporaryDirectory.path("input-error") + "/missing.json"
        let command = try ReportCommand.parse([missing])
        #expect(throws: ResultError.cannotRead(path: missing, reason: "No such file or directory")) { try command.run() }
        // The edge prints it once, as an input error.
        let outcome = try CLI.run(["report", missing])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "launchprof: error: \(missing): cannot read: No such file or directory\n")
    }
}

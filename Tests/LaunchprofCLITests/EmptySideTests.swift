import Foundation
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// `check` and `diff` with a side that has no runs: an input error naming the file, never a pass.
@Suite(.serialized) struct EmptySideTests {
    func results() throws -> (full: String, empty: String) {
        let full = CLI.temporaryPath("full.json")
        let made = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--quiet", "--manifest", try TestManifest.make(), "--output", full])
        try #require(made.status == 0, "\(made.stderr)")
        var result = try ResultFile.read(full)
        result.runs = []
        let empty = CLI.temporaryPath("empty.json")
        try ResultFile.write(result, to: empty)
        return (full, empty)
    }

    @Test func checkAndDiffRefuseAnEmptySide() throws {
        let (full, empty) = try results()
        for arguments in [
            ["check", "--result", empty, "--baseline", full], ["check", "--result", full, "--baseline", empty],
            ["diff", full, empty], ["diff", empty, full]
        ] {
            let outcome = try CLI.run(arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stdout)")
            #expect(outcome.stderr.contains(empty), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("no runs"), "\(arguments): \(outcome.stderr)")
        }
    }
}

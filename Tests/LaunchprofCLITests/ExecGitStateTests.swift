import Foundation
import LaunchCore
import LaunchExport
import LaunchResults
import Testing

/// `exec` reads the git state (one `git status`) only for a result that leaves the process: a file,
/// an export or another format carries it; the text report never showed it.
@Suite struct ExecGitStateTests {
    /// Whether the package root is a git work tree (a source archive is not).
    static let inWorkTree = FileManager.default.fileExists(atPath: CLI.packageRoot + "/.git")

    @Test(.enabled(if: ExecGitStateTests.inWorkTree, "needs the package in a git work tree"))
    func aResultThatLeavesTheProcessCarriesTheGitState() throws {
        let output = CLI.temporaryPath("git-state.json")
        defer { unlink(output) }
        let outcome = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--quiet", "--output", output, "--", "/bin/true"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let result = try ResultFile.read(output)
        #expect(result.git?.commit.count == 40, "the commit of the work tree: \(String(describing: result.git))")
        let json = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--format", "json", "--", "/bin/true"])
        #expect(try ResultFile.decode(Array(json.stdout.utf8), path: "stdout").git == result.git)
    }
}

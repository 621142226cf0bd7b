import ArgumentParser
import Foundation
import LaunchprofTestSupport
import Testing

@testable import LaunchprofCLI

/// Every `launchprof` command that README.md and docs/ show still parses: the documentation cannot
/// name an option or a subcommand that no longer exists, or give a value out of its range.
@Suite struct DocumentedCommandTests {
    static let packageRoot = BuiltProducts.packageRoot

    /// README.md, every Markdown file under docs/, and the examples' README.
    static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/docs")) ?? []
        return ["README.md", "Examples/README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The subcommands' names, from the parser's own configuration.
    static let subcommands = Set(Launchprof.configuration.subcommands.map { $0._commandName })

    static func commands() throws -> [ShellCommandLines.Found] {
        try documents.flatMap { file in
            ShellCommandLines.commands(in: try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8), file: file, subcommands: subcommands)
        }
    }

    @Test func theDocumentsShowManyCommands() throws {
        let found = try Self.commands()
        // The guide and the reference together show about seventy; far fewer means the scan broke.
        #expect(found.count > 50, "found only \(found.count) launchprof commands")
        #expect(Set(found.compactMap(\.arguments.first)).isSuperset(of: ["run", "exec", "check", "diff", "record", "report", "compare", "tiers"]))
    }

    @Test func everyDocumentedCommandParses() throws {
        for command in try Self.commands() {
            do {
                _ = try Launchprof.parseAsRoot(command.arguments)
            } catch {
                // --help and --version end parsing with a clean exit.
                if Launchprof.exitCode(for: error) == .success { continue }
                Issue.record("\(command): \(Launchprof.message(for: error))")
            }
        }
    }

    @Test func aWrongOptionIsCaught() {
        // The check itself can fail: a misspelt option and an out-of-range value are refused.
        #expect(throws: (any Error).self) { try Launchprof.parseAsRoot(["exec", "--runz", "5", "--", "/bin/true"]) }
        #expect(throws: (any Error).self) { try Launchprof.parseAsRoot(["run", "--runs", "0"]) }
    }

    @Test func shellLinesSplitAsAShellWould() {
        let lines = ShellCommandLines.commands(
            inShellLine: #"$ make build && launchprof exec --name 'my tool' -- ./tool "a b" 2>&1 >> "$OUT" | tee out # run it"#)
        #expect(lines == [["exec", "--name", "my tool", "--", "./tool", "a b"]])
        #expect(ShellCommandLines.commands(inShellLine: "LAUNCHPROF_X=1 .build/release/launchprof run --runs 3") == [["run", "--runs", "3"]])
        #expect(ShellCommandLines.commands(inShellLine: "echo launchprof run").isEmpty)
        #expect(
            ShellCommandLines.commands(inShellLine: "launchprof check --baseline ${{ github.sha }} --junit j.xml") == [
                ["check", "--baseline", "EXPR", "--junit", "j.xml"]
            ])
        let doc = "text `launchprof diff A B` and `launchprof check` more\n```sh\nlaunchprof check \\\n  --baseline main\n```\n"
        #expect(
            ShellCommandLines.commands(in: doc, file: "x.md", subcommands: ["diff", "check"]).map(\.arguments) == [
                ["diff", "A", "B"], ["check", "--baseline", "main"]
            ])
        // Output samples and protocol lines are not commands; a shell fence's lines always are.
        let sample =
            "```\nlaunchprof 0.1.0: python3 -c pass, 10 runs\nlaunchprof 1\n$ launchprof tiers --bogus\n```\n```yaml\n  run: >\n    launchprof check\n    --baseline main\n  other: 1\n```\n"
        #expect(
            ShellCommandLines.commands(in: sample, file: "x.md", subcommands: ["check", "tiers"]).map(\.arguments) == [
                ["tiers", "--bogus"], ["check", "--baseline", "main"]
            ])
    }
}

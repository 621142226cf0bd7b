import Foundation
import Testing
import LaunchCore
import LaunchExport

/// Runs the built `launchprof` executable as a user would.
enum CLI {
    static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static let executable = packageRoot + "/.build/debug/launchprof"

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], in directory: String = packageRoot) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }

    static func temporaryPath(_ name: String) -> String {
        "\(NSTemporaryDirectory())launchprof-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
    }
}

@Suite(.serialized) struct CLITests {
    @Test func runWithNoArgumentsPrintsTheClassicReport() throws {
        let outcome = try CLI.run(["run", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Time for Init: ") && $0.hasSuffix("s") })
        #expect(lines.contains("Time for loading conversions: deferred"))
        let last = try #require(lines.last)
        #expect(last.hasPrefix("Total launch time: "))
        #expect(last.range(of: #"^Total launch time: \d+\.\d\ds$"#, options: .regularExpression) != nil)
        #expect(outcome.stderr.isEmpty)
    }

    @Test func runFindsTheDefaultManifestFromAnotherDirectory() throws {
        let outcome = try CLI.run(["run", "--snapshot", CLI.temporaryPath("s.png")], in: NSTemporaryDirectory())
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Total launch time: "))
    }

    @Test func jsonFormatPrintsTheResultDocument() throws {
        let outcome = try CLI.run(["run", "--format", "json", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0)
        let result = try ResultFile.decode(Array(outcome.stdout.utf8), path: "stdout")
        #expect(result.schemaVersion == 1)
        #expect(result.manifest.name == "default")
        #expect(result.manifest.sha256.count == 64)
        #expect(result.runs.count == 1)
        #expect(result.runs[0].phases.filter { $0.depth == 0 }.map(\.name).first == "Init")
        #expect(result.runs[0].total > 0)
        #expect(result.runs[0].pid != nil)
    }

    @Test func outputWritesAResultFileAtomically() throws {
        let directory = CLI.temporaryPath("out")
        let path = directory + "/result.json"
        let outcome = try CLI.run(["run", "--output", path, "--precision", "4", "--snapshot", directory + "/s.png"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(#/Total launch time: \d+\.\d{4}s/#))
        let result = try ResultFile.read(path)
        #expect(result.runs[0].phases.count > 6)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
        let snapshot = try FileIO.read(directory + "/s.png")
        #expect(Array(snapshot.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])

        let report = try CLI.run(["report", path])
        #expect(report.status == 0)
        #expect(report.stdout.hasSuffix("s\n"))
        #expect(report.stdout.contains("Time for drawing: "))
    }

    @Test func touchTimesALazyStageAfterLaunch() throws {
        let outcome = try CLI.run(["run", "--touch", "loading conversions", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(#/Time for loading conversions: deferred, \d+\.\d\ds on first use/#))
        #expect(outcome.stdout.contains("Time for loading constants: deferred\n"))
    }

    @Test func missingManifestIsAnInputError() throws {
        let outcome = try CLI.run(["run", "--manifest", "nope/manifest.json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "launchprof: error: nope/manifest.json: cannot read: No such file or directory\n")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func malformedThemeIsAnInputErrorWithLineAndColumn() throws {
        let directory = CLI.temporaryPath("bad")
        try FileIO.writeAtomically(#"{"theme": "theme.xml", "screen": {"width": 100, "height": 100}, "stages": [{"name": "t", "run": "theme"}]}"#,
                                   to: directory + "/manifest.json")
        try FileIO.writeAtomically("<theme>\n <colors></theme>", to: directory + "/theme.xml")
        let outcome = try CLI.run(["run", "--manifest", directory + "/manifest.json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "launchprof: error: \(directory)/theme.xml:2:18: opening and ending tag mismatch\n")
    }

    @Test func usageErrorsExitWithTwo() throws {
        let unknown = try CLI.run(["run", "--bogus"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--bogus"))
        let precision = try CLI.run(["run", "--precision", "12"])
        #expect(precision.status == 2)
        #expect(precision.stderr.contains("--precision must be from 0 to 9"))
        let noCommand = try CLI.run(["frobnicate"])
        #expect(noCommand.status == 2)
    }

    @Test func unknownResultSchemaIsAnInputError() throws {
        let path = CLI.temporaryPath("future.json")
        try FileIO.writeAtomically(#"{"schemaVersion": 7}"#, to: path)
        let outcome = try CLI.run(["report", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("result schema version 7 is not supported"))
    }

    @Test func helpShowsExamples() throws {
        let root = try CLI.run(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("Examples:"))
        #expect(root.stdout.contains("Exit codes: 0 success, 1 regression found, 2 usage or input error."))
        for command in ["run", "report"] {
            let help = try CLI.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Examples:"))
        }
    }
}

import Foundation
import Testing

/// Every input is checked before the first run (docs/budgets.md, docs/limits.md): each test gives a
/// launch that would leave a marker file (an `--app` or a command that creates it), and the marker
/// must not exist after the refusal.
@Suite(.serialized) struct InputCheckTests {
    /// A directory with a script that creates `marker` in it when launched, as the built-in app or a command.
    struct Scratch {
        let directory = CLI.temporaryPath("inputs")
        var marker: String { directory + "/launched" }
        var script: String { directory + "/app.sh" }

        init() throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try "#!/bin/sh\ntouch '\(directory)/launched'\nexit 1\n".write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
        }

        func write(_ name: String, _ text: String) throws -> String {
            let path = directory + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        var launched: Bool { FileManager.default.fileExists(atPath: marker) }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test func aBudgetNamingAnUnknownTierAndPhaseIsRefusedBeforeAnyRunWithSuggestions() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let budget = try scratch.write("budgets.json", #"{"budgets": {"hots": {"drawnig": 1.0}, "host": {"loading imags": 2.0, "drawing/keys": 1.0}}}"#)
        let outcome = try CLI.run(["check", "--budget", budget, "--app", scratch.script, "--runs", "2", "--snapshot", scratch.directory + "/s.png"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(budget): budgets.hots: no such tier; did you mean host?"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(budget): budgets.hots.drawnig: no such phase; did you mean drawing?"))
        #expect(outcome.stderr.contains("budgets.host.loading imags: no such phase; did you mean loading images?"))
        // A sub-phase of a stage the manifest has is left for the check after the run.
        #expect(!outcome.stderr.contains("drawing/keys"))
        #expect(!scratch.launched, "the app was launched before the budget was refused")
    }

    @Test func aMissingBudgetFileIsRefusedBeforeAnyRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let missing = scratch.directory + "/budgets.json"
        let outcome = try CLI.run(["check", "--budget", missing, "--app", scratch.script, "--runs", "2", "--snapshot", scratch.directory + "/s.png"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(missing): cannot read"), "\(outcome.stderr)")
        #expect(!scratch.launched)
    }

    @Test func aPhaseUnknownUntilTheRunIsRefusedAfterItAndKnownOnesPass() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let snapshot = scratch.directory + "/s.png"
        let unknown = try scratch.write("unknown.json", #"{"budgets": {"host": {"keys": 100, "no such step": 100}}}"#)
        let refused = try CLI.run(["check", "--budget", unknown, "--runs", "2", "--snapshot", snapshot])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(unknown): budgets.host.no such step: no such phase"), "\(refused.stderr)")
        let known = try scratch.write(
            "known.json",
            #"{"budgets": {"host": {"keys": 100, "drawing/keys": 100, "Time to interactive": 100, "Total launch time": 100}, "iphone-1g": {"drawing": 100}}}"#)
        let passed = try CLI.run(["check", "--budget", known, "--runs", "2", "--snapshot", snapshot])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stdout.contains("within budget"))
    }

    @Test func aTierOfATiersFileIsKnownWithTiersAloneAndUnknownWithout() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let tiers = try scratch.write("tiers.json", #"{"tiers": [{"name": "my-device", "factors": {"cpu": 2, "io": 2, "decode": 2, "draw": 2}}]}"#)
        let budget = try scratch.write("b.json", #"{"budgets": {"my-device": {"drawing": 100}}}"#)
        let arguments = ["check", "--budget", budget, "--app", scratch.script, "--snapshot", scratch.directory + "/s.png"]
        let unknown = try CLI.run(arguments)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("budgets.my-device: no such tier (tiers: host, "), "\(unknown.stderr)")
        #expect(!scratch.launched)
        // With the tiers file the name is known: the check goes on to launch (the stand-in app fails).
        let known = try CLI.run(arguments + ["--tiers", tiers])
        #expect(!known.stderr.contains("no such tier"), "\(known.stderr)")
        #expect(scratch.launched)
    }

    @Test func aBudgetIsCheckedAgainstAResultsPhasesWithoutRunning() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = scratch.directory + "/r.json"
        #expect(try CLI.run(["exec", "--runs", "2", "--quiet", "--output", result, "--", "/bin/true"]).status == 0)
        let budget = try scratch.write("b.json", #"{"budgets": {"host": {"Total launch tme": 1}}}"#)
        let outcome = try CLI.run(["check", "--result", result, "--budget", budget])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("budgets.host.Total launch tme: no such phase; did you mean Total launch time?"), "\(outcome.stderr)")
    }

    @Test func anOutputThatIsADirectoryIsRefusedBeforeAnyRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try CLI.run(["exec", "--output", scratch.directory, "--", scratch.script])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--output \(scratch.directory): is a directory, not a file"), "\(outcome.stderr)")
        #expect(!scratch.launched)
    }

    @Test func anExportUnderAFileIsRefusedBeforeAnyRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("plain", "")
        let outcome = try CLI.run(["run", "--app", scratch.script, "--export-csv", file + "/runs.csv", "--snapshot", scratch.directory + "/s.png"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--export-csv \(file)/runs.csv"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(file) is not a directory"))
        #expect(!scratch.launched)
    }

    @Test func aMisspeltSecondTierIsRefusedBeforeTheFirstRuns() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try CLI.run(["compare", "--strategy", "snapshotFirst", "--tier", "host", "--tier", "iphnoe-3gs", "--app", scratch.script])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("unknown tier 'iphnoe-3gs'; did you mean iphone-3gs?"), "\(outcome.stderr)")
        #expect(!scratch.launched)
    }

    @Test func recordingOutsideAGitWorkTreeIsRefusedBeforeAnyRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try CLI.run(
            ["exec", "--record", "--", scratch.script], in: scratch.directory,
            environment: CLI.outsideGit(scratch.directory))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("exec --record needs a git work tree"), "\(outcome.stderr)")
        #expect(!scratch.launched)
    }

    @Test(arguments: [
        (["exec", "sh", "-c", "true"], "launchprof exec -- sh -c true"),
        (["exec", "--runs", "3", "sh", "-c", "exit 0"], "launchprof exec --runs 3 -- sh -c 'exit 0'")
    ])
    func aCommandWithOptionsButNoSeparatorSuggestsOne(arguments: [String], suggestion: String) throws {
        let outcome = try CLI.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("Unknown option '-c'"))
        #expect(outcome.stderr.contains("the command goes after --"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(suggestion))
    }

    @Test func aMissingStoredProgramResultSaysHowToRecordAProgram() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        func git(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: scratch.directory)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }
        try git(["init", "-q"])
        try git(["commit", "-q", "--allow-empty", "-m", "first"])
        try git(["commit", "-q", "--allow-empty", "-m", "second"])
        let recorded = try CLI.run(["exec", "--record", "--runs", "2", "--quiet", "--", "/bin/true"], in: scratch.directory)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        // HEAD~1 has nothing stored: record it as the program the store holds, not the built-in app.
        let older = try CLI.run(["diff", "HEAD~1", "HEAD", "--for-manifest", "/bin/true"], in: scratch.directory)
        #expect(older.status == 2)
        #expect(older.stderr.contains("launchprof exec --record -- /bin/true"), "\(older.stderr)")
        #expect(!older.stderr.contains("launchprof record`"))
        // HEAD has a result, under the program's name: say which option finds it.
        let unnamed = try CLI.run(["diff", "HEAD", "HEAD"], in: scratch.directory)
        #expect(unnamed.status == 2)
        #expect(unnamed.stderr.contains("`--for-manifest /bin/true` (exec -- /bin/true)"), "\(unnamed.stderr)")
    }
}

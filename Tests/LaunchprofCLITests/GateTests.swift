import Foundation
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// `record`, `diff` and `check`, run as a user would.
@Suite(.serialized) struct GateTests {
    func manifest(slowdown: Double? = nil) throws -> String {
        try TestManifest.make(slowdown: slowdown)
    }

    func record(_ manifest: String, runs: Int = 5) throws -> String {
        let path = CLI.temporaryPath("result.json")
        let outcome = try CLI.run(["run", "--manifest", manifest, "--runs", String(runs), "--quiet", "--output", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return path
    }

    @Test func checkPassesOnTheSameDistribution() throws {
        let result = try record(try manifest())
        let outcome = try CLI.run(["check", "--result", result, "--baseline", result])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix(")\n"))
        #expect(
            outcome.stdout.contains(
                #/launchprof check: passed: no launch regression \(total \d+(?:\.\d+)? (?:µs|ms|s) → \d+(?:\.\d+)? (?:µs|ms|s), \+0\.0%, (within noise|inconclusive): .+\)/#
            ))
        #expect(outcome.stderr.isEmpty)
    }

    /// Like with like: a baseline of the built-in app on another manifest, or of a program, is
    /// refused (exit 2) before anything runs, naming both targets.
    @Test func checkRefusesABaselineOfAnotherTarget() throws {
        let result = try record(try manifest(), runs: 1)
        var other = try ResultFile.read(result)
        let candidateManifest = other.manifest.name
        other.manifest.name = "heavy"
        let heavy = CLI.temporaryPath("heavy.json")
        try ResultFile.write(other, to: heavy)
        let manifests = try CLI.run(["check", "--result", result, "--baseline", heavy])
        #expect(manifests.status == 2, "\(manifests.stderr)")
        #expect(
            manifests.stderr.contains("\(heavy) measured the built-in app (manifest heavy), but \(result) is the built-in app (manifest \(candidateManifest))"),
            "\(manifests.stderr)")
        other.command = CommandInfo(arguments: ["./app"], shell: false, end: "exit")
        other.manifest.name = "./app"
        let program = CLI.temporaryPath("program.json")
        try ResultFile.write(other, to: program)
        // Profiled now: the built-in app against a program's baseline, refused before any run.
        let now = try CLI.run(["check", "--baseline", program, "--manifest", try manifest()])
        #expect(now.status == 2, "\(now.stderr)")
        #expect(now.stderr.contains("measured the program './app', but the candidate profiled now is the built-in app"), "\(now.stderr)")
        #expect(now.stderr.contains("launchprof exec --output head.json -- ./app"), "the hint names the program's command: \(now.stderr)")
    }

    @Test func aPassingCheckInAMachineFormatPrintsTheDocumentAloneOnStdout() throws {
        let result = try record(try manifest(), runs: 3)
        for environment in [[:], ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": CLI.temporaryPath("summary.md")]] {
            let json = try CLI.run(["check", "--result", result, "--baseline", result, "--format", "json"], environment: environment)
            #expect(json.status == 0, "\(json.stderr)")
            let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(document?["regressions"] as? [String] == [])
            #expect(json.stderr.contains("launchprof check: passed: no launch regression"))
            let markdown = try CLI.run(["check", "--result", result, "--baseline", result, "--format", "markdown", "--quiet"], environment: environment)
            #expect(markdown.status == 0)
            #expect(markdown.stdout.hasPrefix("### launchprof: ") && !markdown.stdout.contains("launchprof check: passed"), "\(markdown.stdout)")
        }
    }

    @Test func interleavedCheckFailsOnAClearInjectedRegression() throws {
        let junit = CLI.temporaryPath("launch.xml")
        let summary = CLI.temporaryPath("summary.md")
        let outcome = try CLI.run(
            [
                // The drawing 4× its own work: a change no load on a shared CI machine hides in 10 runs.
                "check", "--baseline-manifest", try manifest(), "--manifest", try manifest(slowdown: 3.0),
                "--runs", "10", "--warmup", "1", "--quiet", "--junit", junit
            ],
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                #/launchprof: regression in 'drawing(?:/[^']+)?': median \d+(?:\.\d+)? (?:µs|ms|s) → \d+(?:\.\d+)? (?:µs|ms|s) \(\+\d+(?:\.\d+)? (?:µs|ms|s), \+\d+\.\d%\), over the (5% threshold \(--threshold\)|\d+(?:\.\d+)? ms minimum change \(\d+(?:\.\d)?% here, --min-change\)), confidence \d+\.\d+%/#
            ))
        #expect(outcome.stdout.contains("::error title=Launch regression%3A drawing::'drawing': median "))
        let markdown = try FileIO.readText(summary)
        #expect(markdown.contains("- :x: regression in 'drawing'"))
        #expect(markdown.contains("| Phase |"))
        let xml = try FileIO.readText(junit)
        #expect(xml.contains(#"<testcase classname="#))
        #expect(xml.contains("type=\"launch-regression\""))
    }

    @Test func aBlownBudgetFailsNamingPhaseTierTimeAndBudget() throws {
        let result = try record(try manifest(), runs: 2)
        let budget = CLI.temporaryPath("budget.json")
        try FileIO.writeAtomically(#"{"budgets": {"host": {"Total launch time": 0.0001, "drawing": 100}}}"#, to: budget)
        let outcome = try CLI.run(["check", "--result", result, "--budget", budget])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains(#/^launchprof: over budget: 'Total launch time' on host took \d+(?:\.\d+)? (?:µs|ms|s), budget 100 µs\n$/#))
        try FileIO.writeAtomically(#"{"budgets": {"host": {"Total launch time": 100}}}"#, to: budget)
        let passing = try CLI.run(["check", "--result", result, "--budget", budget])
        #expect(passing.status == 0)
        #expect(passing.stdout == "launchprof check: passed: within budget\n")
    }

    @Test func checkNeedsSomethingToCompareWith() throws {
        let outcome = try CLI.run(["check", "--result", "x.json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("nothing to check against"))
    }

    @Test func diffPrintsTheTableInEveryFormat() throws {
        let a = try record(try manifest(), runs: 3)
        let b = try record(try manifest(), runs: 3)
        let text = try CLI.run(["diff", a, b])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("phase") == true)
        #expect(lines.last?.hasPrefix("Total launch time") == true)
        #expect(lines.contains { $0.hasPrefix("  decoding font-label.png") })
        let markdown = try CLI.run(["diff", a, b, "--format", "markdown"])
        #expect(markdown.stdout.contains("| **Total launch time** |"))
        let json = try CLI.run(["diff", a, b, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["rows"] as? [Any])?.isEmpty == false)
    }

    @Test func recordStoresByCommitAndDiffResolvesRevisions() throws {
        let repository = CLI.temporaryPath("repo")
        try FileIO.createDirectories(repository)
        func git(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: repository)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }
        try git(["init", "-q"])
        try FileIO.writeAtomically("one", to: repository + "/file.txt")
        try git(["add", "file.txt"])
        try git(["commit", "-q", "-m", "one"])
        let manifest = try manifest()
        let first = try CLI.run(["record", "--manifest", manifest, "--runs", "3", "--quiet"], in: repository)
        #expect(first.status == 0, "\(first.stderr)")
        try FileIO.writeAtomically("two", to: repository + "/file.txt")
        try git(["commit", "-q", "-am", "two"])
        let second = try CLI.run(["record", "--manifest", manifest, "--runs", "3", "--quiet"], in: repository)
        #expect(second.status == 0)
        // Stored in the repository's history database; exported, named by commit as a results directory names them.
        #expect(FileIO.exists(repository + "/.launchprof/history.sqlite"))
        let exported = try CLI.run(["history", "export", "--output", "results", "--quiet"], in: repository)
        #expect(exported.status == 0, "\(exported.stderr)")
        let stored = try FileManager.default.contentsOfDirectory(atPath: repository + "/results").sorted()
        #expect(stored.count == 2)
        #expect(stored.allSatisfy { $0.count == 45 && $0.hasSuffix(".json") })
        let result = try ResultFile.read(repository + "/results/" + stored[0])
        #expect(result.git?.dirty == false)
        #expect(result.git?.branch != nil)
        let diff = try CLI.run(["diff", "HEAD~1", "HEAD"], in: repository)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("HEAD~1"))
        let missing = try CLI.run(["diff", "HEAD~1", "HEAD", "--for-tier", "iphone-3gs"], in: repository)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no stored result for HEAD~1"))
        let check = try CLI.run(["check", "--result", repository + "/results/" + stored[0], "--baseline", "HEAD~1"], in: repository)
        #expect([0, 1].contains(check.status))
    }
}

/// `report` in every format, as a user would call it.
@Suite(.serialized) struct ReportCommandTests {
    @Test func everyFormatRendersASavedResult() throws {
        let result = CLI.temporaryPath("result.json")
        let run = try CLI.run(["run", "--runs", "2", "--warmup", "0", "--quiet", "--output", result, "--snapshot", CLI.temporaryPath("s.png")])
        #expect(run.status == 0)
        let svgPath = CLI.temporaryPath("timeline.svg")
        let svg = try CLI.run(["report", result, "--format", "svg", "--run", "2", "--output", svgPath])
        #expect(svg.status == 0)
        #expect(svg.stdout.isEmpty)
        #expect(try FileIO.readText(svgPath).contains("run 2 of 2"))
        let trace = try CLI.run(["report", result, "--format", "chrome-trace"])
        let object = try JSONSerialization.jsonObject(with: Data(trace.stdout.utf8)) as? [String: Any]
        #expect((object?["traceEvents"] as? [Any])?.isEmpty == false)
        let csv = try CLI.run(["report", result, "--format", "csv"])
        #expect(csv.stdout.hasPrefix("run,phase,parent,thread,start,duration,rss\n1,process start,,0,"))
        let markdown = try CLI.run(["report", result, "--format", "markdown"])
        #expect(markdown.stdout.contains("| **Total launch time** |"))
        let critical = try CLI.run(["report", result, "--critical-path"])
        #expect(critical.stdout.contains("process start @0 s"))
        #expect(critical.stdout.contains("└─ drawing @"))
        let blame = try CLI.run(["report", result, "--blame"])
        #expect(blame.stdout.contains(#/^ +self  inclusive  phase\n/#))
        #expect(blame.stdout.contains("drawing/background"))
        let missing = try CLI.run(["report", result, "--format", "svg", "--run", "7"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "launchprof: error: \(result): --run 7 is out of range: the result has 2 runs, 1…2\n")
    }
}

/// `check --runs auto`: interleaved pairs until the sequential rule decides.
@Suite(.serialized) struct AdaptiveCheckTests {
    /// The slowdown doubles every drawing step, so the sequential rule may decide on `drawing` or
    /// on one of its children first (under load, a child's smaller spread can cross before the parent).
    @Test func aDoubledDrawingIsCaughtAtAnEarlyLook() throws {
        let outcome = try CLI.run([
            "check", "--baseline-manifest", try TestManifest.make(),
            "--manifest", try TestManifest.make(slowdown: 1.0), "--warmup", "1", "--max-time", "900"
        ])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                #/launchprof: regression in 'drawing(?:/[^']+)?': median \d+(?:\.\d+)? (?:µs|ms|s) → \d+(?:\.\d+)? (?:µs|ms|s) \(\+\d+(?:\.\d+)? (?:µs|ms|s), \+\d+\.\d%\), over the (5% threshold \(--threshold\)|\d+(?:\.\d+)? ms minimum change \(\d+(?:\.\d)?% here, --min-change\)), \d+(\.\d)?% CI \+\d+\.\d%…\+\d+\.\d% after \d+ runs each/#
            ),
            "\(outcome.stderr)")
    }

    @Test func anUnchangedLaunchPassesAndSaysHowManyRuns() throws {
        let manifest = try TestManifest.make()
        // A wide threshold: the suite runs everything at once on two cores, and a phase of a few
        // milliseconds can move by more than 5% under that load; the point here is the runs line.
        let outcome = try CLI.run(["check", "--baseline-manifest", manifest, "--manifest", manifest, "--max-runs", "16", "--threshold", "25"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.contains(#/; \d+ runs a side \(--runs auto\)/#),
            "\(outcome.stdout)")
        // Whatever is still undecided is reported in the issue's words, never as a pass or a failure.
        for line in outcome.stderr.split(separator: "\n") where line.contains("inconclusive") {
            #expect(
                line.contains(
                    #/inconclusive after \d+ runs each: [+-]\d+\.\d% \(.+, \d+(\.\d)?% CI [−+]\d+\.\d%…[−+]\d+\.\d%\) straddles the .+; still undecided when the runs stopped/#
                ), "\(line)")
        }
        let failing = try CLI.run([
            "check", "--baseline-manifest", manifest, "--manifest", manifest, "--max-runs", "10",
            "--threshold", "0", "--min-change", "0", "--fail-on-inconclusive"
        ])
        #expect(failing.status == 1, "with no threshold nothing can be decided in 10 runs: \(failing.stdout)")
    }

    @Test func optionRangesAreCheckedBeforeAnyArithmetic() throws {
        for (arguments, message) in [
            (["--runs", "99999999999999999999"], "--runs"), (["--runs", "0"], "--runs"), (["--runs", "-3"], "--runs"),
            (["--warmup", "1001"], "--warmup must be from 0 to 1000"), (["--timeout", "1e300"], "--timeout must be from 0.001 to 86400"),
            (["--timeout", "nan"], "--timeout"), (["--max-runs", "5"], "--max-runs must be from 10 to 10000"),
            (["--max-time", "inf"], "--max-time")
        ] {
            let outcome = try CLI.run(["check", "--baseline", "x.json"] + arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
    }
}

/// Inputs that are not regular files are refused by the launcher at once (exit 2), never read by
/// each app child in turn.
@Suite struct InputFileTests {
    @Test func aFIFOOrADeviceAsManifestIsRefusedAtOnce() throws {
        let fifo = CLI.temporaryPath("manifest.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = CLI.temporaryPath("zero.json")
        #expect(symlink("/dev/zero", link) == 0)
        for path in [fifo, link] {
            let outcome = try CLI.run(["run", "--runs", "1", "--manifest", path])
            #expect(outcome.status == 2, "\(path)")
            #expect(outcome.stderr.contains("\(path): is a"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("not a regular file"), "\(outcome.stderr)")
        }
    }
}

import Foundation
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// `launchprof exec` as a user runs it: whole outputs, exit codes, and its results downstream.
@Suite(.serialized) struct ExecCLITests {
    /// The report's lines after the header (the header names the host, which varies).
    func reportLines(_ stdout: String) -> [String] {
        Array(stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).drop { !$0.isEmpty }.dropFirst())
    }

    @Test func pythonPassPrintsWallCPUAndMemory() throws {
        let outcome = try CLI.run(["exec", "--runs", "5", "--", "python3", "-c", "pass"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("launchprof \(launchprofVersion): python3 -c pass, 5 runs after 1 warm-up, warm, on "))
        let body = reportLines(outcome.stdout)
        let patterns = [
            #"^\(5 runs: median ± median absolute deviation\)$"#, #"^Total launch time: \d+(?:\.\d+)? (?:µs|ms|s) ± \d+(?:\.\d+)? (?:µs|ms|s)$"#,
            #"^User CPU time: \d+(?:\.\d+)? (?:µs|ms|s) ± \d+(?:\.\d+)? (?:µs|ms|s)$"#,
            #"^System CPU time: \d+(?:\.\d+)? (?:µs|ms|s) ± \d+(?:\.\d+)? (?:µs|ms|s)$"#,
            #"^Peak memory: \d+\.\d MiB ± \d+\.\d MiB$"#, #"^$"#
        ]
        #expect(body.count == patterns.count, "\(body)")
        for (line, pattern) in zip(body, patterns) {
            #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line) !~ \(pattern)")
        }
    }

    @Test func theResultGoesDownstreamToReportDiffAndCheck() throws {
        let a = CLI.temporaryPath("a.json"), b = CLI.temporaryPath("b.json")
        defer { unlink(a); unlink(b) }
        for path in [a, b] {
            let outcome = try CLI.run(["exec", "--runs", "3", "--quiet", "--output", path, "--", "/bin/sh", "-c", "exit 0"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let result = try ResultFile.read(a)
        #expect(result.schemaVersion == LaunchResult.currentSchemaVersion)
        #expect(result.command?.arguments == ["/bin/sh", "-c", "exit 0"])
        #expect(result.command?.end == "exit")
        #expect(result.runs.count == 3 && result.runs.allSatisfy { $0.process?.exitStatus == 0 && $0.phases.isEmpty })
        let report = try CLI.run(["report", a])
        #expect(report.status == 0 && report.stdout.contains("User CPU time: "))
        let diff = try CLI.run(["diff", a, b])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("User CPU time") && diff.stdout.contains("Total launch time"), "\(diff.stdout)")
        let check = try CLI.run(["check", "--result", b, "--baseline", a, "--threshold", "1000", "--min-change", "1"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("launchprof check: passed"))
        // Budgets apply to a program's result as to the app's: its total and its CPU time.
        let budget = CLI.temporaryPath("budget.json")
        defer { unlink(budget) }
        try FileIO.writeAtomically(#"{"budgets": {"host": {"Total launch time": 0.0000001, "User CPU time": 100}}}"#, to: budget)
        let over = try CLI.run(["check", "--result", b, "--budget", budget])
        #expect(over.status == 1, "\(over.stdout)\(over.stderr)")
        #expect(over.stderr.contains("launchprof: over budget: 'Total launch time'"), "\(over.stderr)")
        #expect(!over.stderr.contains("'User CPU time'"))
        try FileIO.writeAtomically(#"{"budgets": {"host": {"Total launch time": 100, "User CPU time": 100}}}"#, to: budget)
        #expect(try CLI.run(["check", "--result", b, "--budget", budget]).status == 0)
    }

    @Test func recordedUnderItsNameItIsFoundByRevision() throws {
        let store = CLI.temporaryPath("store")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let outcome = try CLI.run(["exec", "--runs", "2", "--record", "--store", store, "--name", "true-tool", "--", "/bin/true"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(": true-tool, 2 runs after 1 warm-up, warm, on "))
        #expect(outcome.stderr.contains("launchprof: recorded \(store)/"))
        let diff = try CLI.run(["diff", "HEAD", "HEAD", "--store", store, "--for-manifest", "true-tool"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("Total launch time"))
    }

    @Test func aSlowerCommandFailsTheInterleavedComparison() throws {
        let outcome = try CLI.run([
            "exec", "--runs", "6", "--warmup", "0", "--quiet", "--baseline-command", "true",
            "--fail-on-regression", "--", "/bin/sh", "-c", "sleep 0.1"
        ])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("launchprof: regression in 'Total launch time': median "), "\(outcome.stderr)")
        #expect(outcome.stdout.contains("true"))
        let same = try CLI.run([
            "exec", "--runs", "6", "--warmup", "0", "--quiet", "--baseline-command", "sleep 0.05",
            "--fail-on-regression", "--threshold", "50", "--", "/bin/sh", "-c", "sleep 0.05"
        ])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    }

    @Test func jsonFormatIsTheResultDocument() throws {
        let outcome = try CLI.run(["exec", "--runs", "2", "--format", "json", "--", "/bin/true"])
        #expect(outcome.status == 0)
        let result = try ResultFile.decode(Array(outcome.stdout.utf8), path: "stdout")
        #expect(result.manifest.name == "/bin/true" && result.manifest.path.isEmpty)
        let typed = try CLI.run(["exec", "--runs", "1", "--format", "json", "--", "true"])
        let named = try ResultFile.decode(Array(typed.stdout.utf8), path: "stdout")
        #expect(named.manifest.name == "true", "the command as typed")
        #expect(named.command?.arguments.first?.hasSuffix("/true") == true, "the executable as spawned")
        #expect(result.command?.shell == false)
        #expect(result.runs.allSatisfy { ($0.peakResidentBytes ?? 0) > 0 && $0.process != nil })
    }

    @Test func badCommandsAndOptionsAreExit2WithAClearMessage() throws {
        let directory = CLI.temporaryPath("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let plain = directory + "/plain.txt"
        try FileIO.writeAtomically("not a program", to: plain)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases: [([String], String)] = [
            (["exec", "--", "no-such-command-xyz"], "launchprof: error: 'no-such-command-xyz': command not found on PATH\n"),
            (["exec", "--", "/no/such/file"], "launchprof: error: '/no/such/file': No such file or directory\n"),
            (["exec", "--", directory], "launchprof: error: '\(directory)' is a directory, not a program\n"),
            (["exec", "--", plain], "launchprof: error: '\(plain)' is not executable (Permission denied; chmod +x it, or run it through its interpreter)\n"),
            (["exec"], "launchprof: error: give the command to profile after --: launchprof exec [options] -- CMD [ARGS…]\n"),
            (
                ["exec", "--ready-when-output", "(", "--", "/bin/true"],
                "launchprof: error: --ready-when-output: '(' is not a valid extended regular expression: Unmatched ( or \\(\n"
            ),
            (
                ["exec", "--shell", "--", "echo", "a"],
                "launchprof: error: --shell takes the whole command line as one argument: launchprof exec --shell -- 'CMD ARGS | …' (got 2 arguments)\n"
            ),
            (
                ["exec", "--input", directory, "--", "/bin/true"],
                "launchprof: error: --input \(directory): not a regular file (only files are evicted from the page cache)\n"
            )
        ]
        for (arguments, message) in cases {
            let outcome = try CLI.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr == message, "\(arguments)")
            #expect(outcome.stdout.isEmpty)
        }
        for (arguments, fragment) in [
            (["exec", "--ready-when-port", "70000", "--", "/bin/true"], "--ready-when-port must be from 1 to 65535"),
            (["exec", "--ready-when-port", "0", "--", "/bin/true"], "--ready-when-port must be from 1 to 65535"),
            (["exec", "--grace", "-1", "--", "/bin/true"], "--grace must be from 0 to 3600 seconds"),
            (["exec", "--runs", "auto", "--", "/bin/true"], "--runs auto chooses how many runs a comparison needs"),
            (
                ["exec", "--ready-when-port", "80", "--ready-when-file", "x", "--", "/bin/true"],
                "give one of --ready-when-output, --ready-when-port and --ready-when-file"
            )
        ] {
            let outcome = try CLI.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains(fragment), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func aFailingRunShowsItsStderrAndIgnoreFailureKeepsIt() throws {
        let failing = try CLI.run(["exec", "--runs", "2", "--", "/bin/sh", "-c", "echo 'bad config' >&2; exit 3"])
        #expect(failing.status == 2)
        #expect(failing.stderr == "launchprof: error: /bin/sh exited with status 3:\nbad config\n")
        let kept = try CLI.run(["exec", "--runs", "2", "--ignore-failure", "--", "/bin/sh", "-c", "exit 3"])
        #expect(kept.status == 0)
        #expect(kept.stdout.contains("\nExit status: 3 in 2 of 2 runs\n"))
    }

    @Test func showOutputCopiesTheProgramsOutputToStderrOnly() throws {
        let quiet = try CLI.run(["exec", "--runs", "1", "--quiet", "--", "/bin/sh", "-c", "echo out-text; echo err-text >&2"])
        #expect(!quiet.stdout.contains("out-text") && !quiet.stderr.contains("out-text") && !quiet.stderr.contains("err-text"))
        let shown = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--quiet", "--show-output", "--", "/bin/sh", "-c", "echo out-text; echo err-text >&2"])
        #expect(shown.stderr.contains("out-text\n") && shown.stderr.contains("err-text\n"))
        #expect(!shown.stdout.contains("out-text"), "the report stays alone on stdout")
    }

    @Test func aMissingExpectedPhaseFailsWithAClearError() throws {
        let outcome = try CLI.run(["exec", "--runs", "1", "--expect-phase", "loading config", "--", "/bin/true"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "launchprof: error: /bin/true never reported the phase 'loading config' that --expect-phase requires (a missing phase is never taken as 0)\n"
        )
    }

    @Test func aShellScriptsOwnPhasesAreReported() throws {
        let script =
            "printf 'launchprof 1\\nbegin - 0 io reading config\\n' >&$LAUNCHPROF_FD; sleep 0.01; printf 'end - 0 reading config\\nmark - 0 interactive\\ndone -\\n' >&$LAUNCHPROF_FD"
        let outcome = try CLI.run(["exec", "--runs", "2", "--precision", "3", "--all-phases", "--expect-phase", "reading config", "--shell", "--", script])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let body = reportLines(outcome.stdout)
        #expect(body.count == 8, "\(body)")
        #expect(body[1].hasPrefix("Time for reading config: "))
        #expect(body[2].hasPrefix("Total launch time: ") && body[3].hasPrefix("Time to interactive: "))
    }
}

@Suite(.serialized) struct ExecColdTests {
    @Test func aColdRunEvictsTheProgramAndItsLibraries() throws {
        let outcome = try CLI.run(["exec", "--cold", "--runs", "2", "--", "/bin/true"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(", 2 runs after 1 warm-up, cold, on "))
    }
}

/// `exec --trace`: the phases of startup traces real programs write.
@Suite(.serialized) struct ExecTraceTests {
    @Test func pythonImportTimeShowsNestedImports() throws {
        let outcome = try CLI.run([
            "exec", "--runs", "2", "--precision", "4", "--all-phases", "--trace", "python-importtime", "--", "python3", "-c", "import json"
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let json = try #require(lines.firstIndex { $0.hasPrefix("Time for import json: ") })
        #expect(lines[json + 1].hasPrefix("  Time for import json.decoder: "), "\(lines)")
        let result = try ResultFile.decode(
            Array(try CLI.run(["exec", "--runs", "1", "--format", "json", "--trace", "python-importtime", "--", "python3", "-c", "import json"]).stdout.utf8),
            path: "stdout")
        #expect(result.command?.trace == "python-importtime")
        let phases = try #require(result.runs.first?.phases)
        let parent = try #require(phases.firstIndex { $0.name == "import json" })
        #expect(phases.contains { $0.name == "import json.decoder" && $0.parent == parent })
        #expect(phases.allSatisfy { $0.end <= result.runs[0].total + 1e-9 }, "every import lies within the run")
    }

    @Test func gitTrace2ShowsItsRegions() throws {
        let repository = CLI.temporaryPath("repo")
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: repository) }
        #expect(try CLI.run(["exec", "--runs", "1", "--quiet", "--", "git", "init", "-q", repository]).status == 0)
        let outcome = try CLI.run(["exec", "--runs", "2", "--all-phases", "--trace", "git-trace2", "--", "git", "-C", repository, "status"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Time for refresh (index): "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("Time for untracked (status): "))
    }

    @Test func aChromeTraceFileBecomesPhasesAndMarks() throws {
        let script = """
            import json, os, time
            t0 = time.monotonic_ns() // 1000
            time.sleep(0.02)
            t1 = time.monotonic_ns() // 1000
            events = [{"name": "loading config", "ph": "X", "ts": t0, "dur": t1 - t0, "pid": 1, "tid": 1},
                      {"name": "interactive", "ph": "i", "ts": t1, "pid": 1, "tid": 1, "s": "t"}]
            json.dump({"traceEvents": events}, open(os.environ["LAUNCHPROF_TRACE_FILE"], "w"))
            """
        let file = CLI.temporaryPath("trace.json")
        defer { unlink(file) }
        let outcome = try CLI.run([
            "exec", "--runs", "2", "--precision", "3", "--all-phases", "--trace", "chrome-trace", "--trace-file", file, "--expect-phase", "loading config",
            "--", "python3",
            "-c", script
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // The trace's own duration: at least the 20 ms slept (a loaded machine only lengthens it).
        let reported = DurationText.seconds(after: "\nTime for loading config: ", in: outcome.stdout)
        #expect(reported.map { $0 >= 0.0195 && $0 < 60 } == true, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("\nTime to interactive: "))
    }

    @Test func badTraceOptionsAndFilesAreExit2() throws {
        let directory = CLI.temporaryPath("tracedir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (arguments, fragment) in [
            (["exec", "--trace", "chrome-trace", "--", "/bin/true"], "--trace chrome-trace needs --trace-file FILE"),
            (["exec", "--trace-file", "x.json", "--", "/bin/true"], "--trace-file needs --trace FORMAT"),
            (["exec", "--trace", "perfetto", "--", "/bin/true"], "--trace"),
            (["exec", "--trace", "chrome-trace", "--trace-file", directory, "--", "/bin/true"], directory),
            (["exec", "--runs", "1", "--trace", "chrome-trace", "--trace-file", directory + "/never.json", "--", "/bin/true"], "the program wrote no trace")
        ] {
            let outcome = try CLI.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains(fragment), "\(arguments): \(outcome.stderr)")
        }
    }
}

/// `exec --tier`: a real program's CPU throttled from outside, and `--enforce-memory`.
@Suite(.serialized) struct ExecTierTests {
    /// Examples/cpu-bound/spin.c compiled once, or `nil` without a C compiler.
    static let spin: String? = {
        let binary = CLI.temporaryPath("spin")
        guard
            let outcome = try? CLI.run([
                "exec", "--runs", "1", "--warmup", "0", "--quiet", "--", "cc", "-O2", "-pthread", "-o", binary,
                CLI.packageRoot + "/Examples/cpu-bound/spin.c"
            ]), outcome.status == 0
        else { return nil }
        return binary
    }()

    func tiersFile(cpu: Double, memoryMB: Int) throws -> String {
        let path = CLI.temporaryPath("tiers.json")
        try FileIO.writeAtomically(
            #"{"tiers": [{"name": "slow", "factors": {"cpu": \#(cpu), "io": 1, "decode": 1, "draw": 1}, "memoryBudgetMB": \#(memoryMB)}]}"#, to: path)
        return path
    }

    /// The run cgroups the launchprof process `pid` made (`launchprof-<pid>-…`): other tests running
    /// at the same time make and remove their own.
    func runCgroups(of pid: Int32) -> Set<String> {
        let prefix = "launchprof-\(pid)-"
        return Set((try? FileManager.default.contentsOfDirectory(atPath: "/sys/fs/cgroup/cpu"))?.filter { $0.hasPrefix(prefix) } ?? [])
    }

    @Test(arguments: ["", "signals"]) func aCPUBoundProgramIsStretchedByTheFactor(_ mechanism: String) throws {
        guard let spin = Self.spin else { Issue.record("no C compiler to build Examples/cpu-bound/spin.c"); return }
        let tiers = try tiersFile(cpu: 4, memoryMB: 64)
        var arguments = ["exec", "--runs", "2", "--format", "json", "--tier", "slow", "--tiers", tiers]
        if !mechanism.isEmpty { arguments += ["--throttle", mechanism] }
        let outcome = try CLI.run(arguments + ["--", spin, "150"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let result = try ResultFile.decode(Array(outcome.stdout.utf8), path: "stdout")
        #expect(result.configuration?.tier?.factors == [.cpu: 4])
        #expect(result.command?.throttle?.contains(mechanism.isEmpty ? "cgroup" : "SIGSTOP/SIGCONT") == true, "\(result.command?.throttle ?? "")")
        for run in result.runs {
            // 150 ms of CPU at a quarter of a CPU: about 0.6 s; a loaded machine only adds time.
            #expect(run.total >= 0.45, "stretched: \(run.total) s")
            #expect((run.process?.user ?? 0) < 0.3, "the program's own CPU time is not stretched")
        }
        #expect(runCgroups(of: outcome.pid).isEmpty, "every run's cgroup is removed")
    }

    @Test func enforceMemoryKillsAProgramOverTheBudget() throws {
        let tiers = try tiersFile(cpu: 1, memoryMB: 32)
        let outcome = try CLI.run([
            "exec", "--runs", "1", "--warmup", "0", "--tier", "slow", "--tiers", tiers, "--enforce-memory", "--",
            "python3", "-c", "b = bytearray(96 << 20)"
        ])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("killed: over the slow memory budget of 32 MiB"), "\(outcome.stderr)")
        let small = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--tier", "slow", "--tiers", tiers, "--enforce-memory", "--", "/bin/true"])
        #expect(small.status == 0, "\(small.stderr)")
    }

    @Test func theBuiltInAppIsKilledOverATinyBudgetToo() throws {
        let tiers = try tiersFile(cpu: 1, memoryMB: 3)
        let outcome = try CLI.run([
            "run", "--runs", "1", "--warmup", "0", "--snapshot", CLI.temporaryPath("s.png"),
            "--tier", "slow", "--tiers", tiers, "--enforce-memory"
        ])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("the app was killed: over the slow memory budget of 3 MiB"), "\(outcome.stderr)")
    }

    /// /bin/true computes for well under a millisecond: less than any throttle stretches honestly.
    @Test(arguments: ["", "signals"]) func aProgramTooShortToStretchIsWarnedAbout(_ mechanism: String) throws {
        let tiers = try tiersFile(cpu: 4, memoryMB: 64)
        var arguments = ["exec", "--runs", "2", "--format", "json", "--tier", "slow", "--tiers", tiers]
        if !mechanism.isEmpty { arguments += ["--throttle", mechanism] }
        let outcome = try CLI.run(arguments + ["--", "/bin/true"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let result = try ResultFile.decode(Array(outcome.stdout.utf8), path: "stdout")
        #expect(
            result.warnings.contains { $0.hasPrefix("the program computed for ") && $0.hasSuffix("(docs/tiers.md, \"Short programs\")") },
            "\(result.warnings)")
        // A tier without cores is throttled as one core.
        #expect(result.command?.throttle?.contains(" on 1 core by ") == true, "\(result.command?.throttle ?? "")")
    }

    @Test func tierOptionsAreChecked() throws {
        for (arguments, fragment) in [
            (["exec", "--enforce-memory", "--", "/bin/true"], "--enforce-memory needs --tier NAME"),
            (["exec", "--tier", "iphone-3gs", "--throttle", "cgroups", "--", "/bin/true"], "--throttle must be cgroup-v1, cgroup-v2 or signals"),
            (["exec", "--tier", "no-such-tier", "--", "/bin/true"], "no-such-tier"),
            (["run", "--enforce-memory"], "--enforce-memory needs --tier NAME")
        ] {
            let outcome = try CLI.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains(fragment), "\(arguments): \(outcome.stderr)")
        }
    }
}

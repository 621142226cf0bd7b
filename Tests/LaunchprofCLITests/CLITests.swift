import Foundation
import LaunchprofTestSupport
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// Runs the built `launchprof` executable as a user would.
enum CLI {
    static let packageRoot = BuiltProducts.packageRoot

    static let executable = BuiltProducts.executable("launchprof")

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The launchprof process's pid (0 where the outcome was not made by ``run(_:in:environment:program:prefix:deadline:)``).
        var pid: Int32 = 0
    }

    static func run(
        _ arguments: [String], in directory: String = packageRoot, environment extra: [String: String] = [:], program: String = executable,
        prefix: [String] = [], deadline: Double? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = prefix + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["GITHUB_ACTIONS"] = nil
        environment["XDG_CACHE_HOME"] = calibrationCache
        // System counters off (docs/counters.md): on a loaded machine (CI runs every test at once on
        // two cores) the busy-machine rule would add load-dependent reasons and caveats to the output.
        // CountersCLITests turn them on.
        environment[AppInterface.countersVariable] = "0"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        // Files, not pipes (OutputFiles): a process another test starts at the same moment (a server,
        // a session spawner) could inherit a pipe's write end, and its end of file would never come.
        let output = try OutputFiles.run(process, deadline: deadline)
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: output.stdout, as: UTF8.self),
            stderr: String(decoding: output.stderr, as: UTF8.self), pid: process.processIdentifier)
    }

    /// The tests' own `$XDG_CACHE_HOME`, with this host's calibration made once for the whole run
    /// (`tiers --calibrate`): tier runs neither touch the user's cache nor each measure the host.
    static let calibrationCache: String = {
        let path = TemporaryDirectory.shared("cli-cache")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["tiers", "--calibrate"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil { process.waitUntilExit() }
        return path
    }()

    /// A new path named after `name` in the test process's directory (removed when it exits).
    static func temporaryPath(_ name: String) -> String { TemporaryDirectory.uniquePath(name) }

    /// The environment in which git, started in `directory`, finds no repository there or above
    /// (where `$TMPDIR` lies inside a git work tree, the enclosing one would be found): the parent
    /// as `GIT_CEILING_DIRECTORIES`. Not `directory` itself: git looks in the directory it starts
    /// in whatever the ceiling, and stops before entering a ceiling above it.
    static func outsideGit(_ directory: String) -> [String: String] {
        ["GIT_CEILING_DIRECTORIES": FileIO.parentDirectory(of: directory)]
    }
}

@Suite(.serialized) struct CLITests {
    @Test func runWithNoArgumentsPrintsTheClassicReport() throws {
        let outcome = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--all-phases", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Time for process start: ") })
        #expect(lines.contains { $0.hasPrefix("Time for Init: ") && $0.hasSuffix("s") })
        #expect(lines.contains("Time for loading conversions: deferred"))
        // The total, then what users feel: the two standard marks; then the background step.
        let total = try #require(lines.firstIndex { $0.hasPrefix("Total launch time: ") })
        let tail = Array(lines[total...].prefix(5))
        try #require(tail.count == 5)
        // The default manifest shows the dialog after 1 s of init: a quiet machine never reaches it, a
        // loaded one may; either way the line says which.
        #expect(
            tail[3] == "Loading dialog: not shown (init finished before it was due)"
                || tail[3].range(of: #"^Loading dialog: shown in 1 of 1 runs, for \d+(?:\.\d+)? (?:µs|ms|s)"#, options: .regularExpression) != nil, "\(tail[3])"
        )
        #expect(tail[4].hasPrefix("Time for entering background: "))
        #expect(tail[0].range(of: #"^Total launch time: \d+(?:\.\d+)? (?:µs|ms|s)$"#, options: .regularExpression) != nil)
        #expect(tail[1].range(of: #"^Time to first frame: \d+(?:\.\d+)? (?:µs|ms|s)$"#, options: .regularExpression) != nil)
        #expect(tail[2].range(of: #"^Time to interactive: \d+(?:\.\d+)? (?:µs|ms|s)$"#, options: .regularExpression) != nil)
        #expect(outcome.stderr.isEmpty)
    }

    @Test func runFindsTheDefaultManifestFromAnotherDirectory() throws {
        let directory = CLI.temporaryPath("elsewhere")
        try FileIO.createDirectories(directory)
        let outcome = try CLI.run(["run", "--runs", "1", "--snapshot", CLI.temporaryPath("s.png")], in: directory)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Total launch time: "))
    }

    @Test func jsonFormatPrintsTheResultDocument() throws {
        let outcome = try CLI.run(["run", "--runs", "3", "--format", "json", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0)
        let result = try ResultFile.decode(Array(outcome.stdout.utf8), path: "stdout")
        #expect(result.schemaVersion == LaunchResult.currentSchemaVersion)
        #expect(result.manifest.name == "default")
        #expect(result.manifest.sha256.count == 64)
        #expect(result.configuration == RunConfiguration(runs: 3, warmup: 1, mode: .warm, timeout: 60, metric: .time))
        #expect(result.runs.count == 3)
        // Each run is its own process, and exec-to-main is measured in every one.
        #expect(Set(result.runs.compactMap(\.pid)).count == 3)
        #expect(!result.runs.contains { $0.pid == nil || Int32($0.pid!) == getpid() })
        for run in result.runs {
            #expect(run.phases[0].name == "process start")
            #expect(run.phases[0].duration > 0)
            #expect(Array(run.phases.filter { $0.depth == 0 }.map(\.name).prefix(4)) == ["process start", "reading manifest", "showing snapshot", "Init"])
            #expect(run.marks.map(\.name) == ["first frame", "interactive"])
            #expect(run.phases.last { $0.depth == 0 }?.name == "entering background")
            #expect(run.phases.last { $0.depth == 0 }?.background == true)
            #expect(run.total > run.phases[0].duration)
            #expect((run.peakResidentBytes ?? 0) > 1_000_000)
            let images = try #require(run.phases.first { $0.name == "loading images" })
            #expect((images.residentBytes ?? 0) > 0)
            #expect(images.residentGrowth != nil)
        }
    }

    @Test func outputWritesAResultFileAtomically() throws {
        let directory = CLI.temporaryPath("out")
        let path = directory + "/result.json"
        let outcome = try CLI.run(["run", "--runs", "1", "--output", path, "--precision", "4", "--snapshot", directory + "/s.png"])
        #expect(outcome.status == 0)
        // Four significant digits in the unit that fits.
        let total = try #require(outcome.stdout.firstMatch(of: #/Total launch time: ([\d.]+) (µs|ms|s)\n/#))
        #expect(total.1.filter(\.isNumber).drop { $0 == "0" }.count == 4, "\(total.0)")
        let result = try ResultFile.read(path)
        #expect(result.runs[0].phases.count > 6)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
        let snapshot = try FileIO.read(directory + "/s.png")
        #expect(Array(snapshot.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])

        let report = try CLI.run(["report", path])
        #expect(report.status == 0)
        #expect(report.stdout.contains(#/\nTotal launch time: \d+(?:\.\d+)? (?:µs|ms|s)\n/#))
        #expect(report.stdout.contains("Time for drawing: "))
    }

    @Test func touchTimesALazyStageAfterLaunch() throws {
        let outcome = try CLI.run(["run", "--runs", "1", "--touch", "loading conversions", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(#/Time for loading conversions: deferred, \d+(?:\.\d+)? (?:µs|ms|s) on first use/#))
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
        try FileIO.writeAtomically(
            #"{"theme": "theme.xml", "screen": {"width": 100, "height": 100}, "stages": [{"name": "t", "run": "theme"}]}"#,
            to: directory + "/manifest.json")
        try FileIO.writeAtomically("<theme>\n <colors></theme>", to: directory + "/theme.xml")
        let outcome = try CLI.run(["run", "--manifest", directory + "/manifest.json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "launchprof: error: \(directory)/theme.xml:2:18: opening and ending tag mismatch\n")
        #expect(outcome.stdout.isEmpty)
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
        // The parser's errors and validate()'s read as every other error: one prefix, then the usage.
        let invalid = try CLI.run(["compare"])
        #expect(invalid.status == 2)
        for outcome in [unknown, precision, noCommand, invalid] {
            #expect(outcome.stderr.hasPrefix("launchprof: error: "), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("\nUsage: launchprof"), "\(outcome.stderr)")
        }
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
        for command in ["run", "report", "tiers"] {
            let help = try CLI.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Examples:"))
        }
    }

    @Test func severalRunsShowMedianAndSpreadAndStatistics() throws {
        let outcome = try CLI.run(["run", "--runs", "3", "--warmup", "0", "--stats", "--memory", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("(3 runs: median ± median absolute deviation)\n"))
        #expect(outcome.stdout.contains(#/Time for drawing: \d+(?:\.\d+)? (?:µs|ms|s) ± \d+(?:\.\d+)? (?:µs|ms|s)  \[rss \d+\.\d MiB, [+-]\d+\.\d MiB\]/#))
        #expect(
            outcome.stdout.contains(#/Total launch time: \d+(?:\.\d+)? (?:µs|ms|s) ± \d+(?:\.\d+)? (?:µs|ms|s)  \[peak \d+\.\d MiB\]\nTime to first frame: /#))
        #expect(outcome.stdout.contains("phase"))
        #expect(outcome.stdout.contains("outlier runs"))
        #expect(outcome.stdout.contains("Outliers: |modified z-score| > 3.5"))
    }

    @Test func coldRunsAreRecordedAsCold() throws {
        let outcome = try CLI.run(["run", "--runs", "2", "--warmup", "0", "--cold", "--format", "json", "--snapshot", CLI.temporaryPath("s.png")])
        #expect(outcome.status == 0)
        let result = try ResultFile.decode(Array(outcome.stdout.utf8), path: "stdout")
        #expect(result.configuration?.mode == .cold)
    }

    @Test func aTierOverItsMemoryBudgetWarnsWithTierPeakAndBudget() throws {
        let tiers = CLI.temporaryPath("tiers.json")
        try FileIO.writeAtomically(#"{"tiers": [{"name": "tiny", "description": "1 MiB phone", "factors": {"cpu": 1.5}, "memoryBudgetMB": 1}]}"#, to: tiers)
        let outcome = try CLI.run([
            "run", "--runs", "1", "--warmup", "0", "--tier", "tiny", "--tiers", tiers, "--output", CLI.temporaryPath("r.json"),
            "--snapshot", CLI.temporaryPath("s.png")
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains(#/launchprof: warning: peak resident memory \d+\.\d MiB is over the tiny memory budget of 1\.0 MiB/#))
        #expect(outcome.stdout.contains("emulating tiny (cpu ×1.5, io ×1.0, decode ×1.0, draw ×1.0)"))
        #expect(outcome.stdout.contains(#/Total launch time: \d+(?:\.\d+)? (?:µs|ms|s) \(host \d+(?:\.\d+)? (?:µs|ms|s)\)/#))
        let json = try CLI.run([
            "run", "--runs", "1", "--warmup", "0", "--tier", "tiny", "--tiers", tiers, "--format", "json", "--quiet",
            "--snapshot", CLI.temporaryPath("s.png")
        ])
        let result = try ResultFile.decode(Array(json.stdout.utf8), path: "stdout")
        #expect(result.configuration?.tier?.name == "tiny")
        #expect(result.configuration?.tier?.factors[.cpu] == 1.5)
        #expect(result.warnings.contains { $0.contains("tiny memory budget") })
        #expect(json.stderr.isEmpty)
        #expect(result.runs[0].phases.contains { $0.hostDuration != nil })
    }

    @Test func unknownTierIsAnInputError() throws {
        let outcome = try CLI.run(["run", "--tier", "nokia-3310"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("unknown tier 'nokia-3310' (tiers: host, iphone-3gs, ipod-touch-2g, iphone-1g"))
    }

    @Test func tiersListsTheBuiltInTiersWithFactors() throws {
        let outcome = try CLI.run(["tiers"])
        #expect(outcome.status == 0)
        for name in ["host", "iphone-3gs", "ipod-touch-2g", "iphone-1g"] { #expect(outcome.stdout.contains(name)) }
        #expect(outcome.stdout.contains("96.0 MiB"))
        #expect(outcome.stdout.split(separator: "\n").first?.contains("cores") == true, "the tiers' cores are listed")
        let calibrate = try CLI.run(["tiers", "--calibrate"])
        #expect(calibrate.stdout.contains(#/\{ "cpu": \d+\.\d+, "io": \d+\.\d+, "decode": \d+\.\d+, "draw": \d+\.\d+ \}/#))
    }

    @Test func aFailingAppIsReportedWithItsMessage() throws {
        let directory = CLI.temporaryPath("missing")
        try FileIO.writeAtomically(
            #"{"theme": "nope.xml", "screen": {"width": 100, "height": 100}, "stages": [{"name": "t", "run": "theme"}]}"#,
            to: directory + "/manifest.json")
        let outcome = try CLI.run(["run", "--runs", "2", "--manifest", directory + "/manifest.json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "launchprof: error: \(directory)/nope.xml: cannot read: No such file or directory\n")
    }
}

@Suite struct InterruptTests {
    /// Processes whose command line contains `marker`.
    func processes(containing marker: String) -> [Int] {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { name -> Int? in
            guard let pid = Int(name), let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            return String(decoding: data, as: UTF8.self).contains(marker) ? pid : nil
        } ?? []
    }

    @Test func interruptingLaunchprofEndsTheAppItLaunched() throws {
        let tiers = CLI.temporaryPath("slow-tiers.json")
        try FileIO.writeAtomically(#"{"tiers": [{"name": "glacial", "factors": {"cpu": 1000, "io": 1000, "decode": 1000, "draw": 1000}}]}"#, to: tiers)
        let manifest = CLI.temporaryPath("interrupt") + "/manifest.json"
        try FileIO.writeAtomically(try FileIO.read(CLI.packageRoot + "/Fixtures/default/manifest.json"), to: manifest)
        // The copied manifest's relative paths must still resolve: point them at the fixture.
        let fixture = CLI.packageRoot + "/Fixtures/default"
        let text = try FileIO.readText(manifest)
            .replacingOccurrences(of: "\"theme.xml\"", with: "\"\(fixture)/theme.xml\"")
            .replacingOccurrences(of: "\"assets\": \"assets\"", with: "\"assets\": \"\(fixture)/assets\"")
            .replacingOccurrences(of: "\"Loading.png\"", with: "\"\(CLI.temporaryPath("s.png"))\"")
        try FileIO.writeAtomically(text, to: manifest)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = ["run", "--manifest", manifest, "--tier", "glacial", "--tiers", tiers, "--runs", "1", "--warmup", "0", "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var started = false
        for _ in 0..<200 where !started {
            started = !processes(containing: manifest).filter { $0 != Int(process.processIdentifier) }.isEmpty
            if !started { usleep(50_000) }
        }
        #expect(started)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        var left = processes(containing: manifest)
        for _ in 0..<40 where !left.isEmpty {
            usleep(50_000)
            left = processes(containing: manifest)
        }
        #expect(left.isEmpty)
    }
}

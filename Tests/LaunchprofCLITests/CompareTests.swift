import Foundation
import Testing
import LaunchCore

/// `launchprof compare`: a row per strategy and measure with a verdict; bad requests exit 2.
@Suite(.serialized) struct CompareTests {
    @Test func allStrategiesOfTheDefaultManifestInCSV() throws {
        let outcome = try CLI.run(["compare", "--all", "--runs", "2", "--warmup", "1", "--format", "csv", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "strategy,tier,measure,unit,off,on,change_percent,verdict")
        let strategies = Set(lines.dropFirst().map { String($0.split(separator: ",")[0]) })
        #expect(
            strategies == ["reuseKeyBackgrounds", "snapshotFirst", "queueInputDuringLaunch", "loadingDialog", "releaseCachesOnBackground", "coalescedLayout"])
        // Coalesced layout: one pass instead of one per setting (10 on the default fixture), whatever the noise.
        #expect(lines.contains("coalescedLayout,host,layout passes,count,10.0,1.0,-90.0,better"), "\(lines.filter { $0.contains("layout passes") })")
        let verdicts = Set(lines.dropFirst().compactMap { $0.split(separator: ",").last.map(String.init) })
        #expect(verdicts.isSubset(of: ["better", "worse", "no change", "inconclusive", "not comparable"]))
        // Each strategy measured its first frame, interactive, total, background time and dirty memory.
        for measure in ["first frame", "interactive", "total", "background time", "dirty memory"] {
            #expect(lines.filter { $0.contains(",host,\(measure),") }.count == 6, "\(measure)")
        }
        // Nothing is left behind in the fixtures: each side had its own snapshot in a temporary directory.
        #expect(!FileManager.default.fileExists(atPath: CLI.packageRoot + "/Fixtures/default/snapshotFirst-off-manifest.json"))
    }

    @Test func aTextTableNamesTheRunsAndTheTiers() throws {
        let outcome = try CLI.run([
            "compare", "--strategy", "releaseCachesOnBackground", "--runs", "2", "--warmup", "0", "--resume", "--tier", "host", "--tier", "host", "--quiet"
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("strategy"))
        #expect(outcome.stdout.contains("return to foreground"))
        #expect(outcome.stdout.contains("(2 runs a side, interleaved off and on"))
        #expect(outcome.stdout.components(separatedBy: "releaseCachesOnBackground  host").count - 1 >= 12)  // Two tiers × six measures.
    }

    @Test func runsAutoSaysWhyItStoppedAndEachVerdictWhy() throws {
        let outcome = try CLI.run([
            "compare", "--strategy", "coalescedLayout", "--runs", "auto", "--max-runs", "16", "--warmup", "0", "--quiet"
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let stop = try #require(lines.first { $0.hasPrefix("coalescedLayout on host: stopped after ") }, "\(outcome.stdout)")
        #expect(
            stop.contains(#/stopped after \d+ pairs?: (every timed row decided|the budget ran out \(--max-runs 16\), \d+ timed rows? still inconclusive)/#),
            "\(stop)")
        // Never "decided" while a timed row is still inconclusive.
        let timed = ["  first frame  ", "  interactive  ", "  total  ", "  background time  "]
        let inconclusive = lines.filter { line in line.contains("  inconclusive: ") && timed.contains { line.contains($0) } }.count
        #expect((inconclusive == 0) == stop.contains("every timed row decided"), "\(outcome.stdout)")
        // Every compared row says why: its verdict word, then a reason with numbers.
        for measure in ["first frame", "interactive", "total"] {
            let row = try #require(lines.first { $0.contains("  \(measure)  ") }, "\(measure)")
            #expect(row.contains(#/(better|worse|no change|inconclusive): [+-]\d+\.\d%/#), "\(row)")
        }
    }

    @Test func badRequestsExitTwo() throws {
        let unknown = try CLI.run(["compare", "--strategy", "warpDrive"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown strategy 'warpDrive' (strategies: reuseKeyBackgrounds, snapshotFirst"))
        #expect(try CLI.run(["compare"]).stderr.contains("give --strategy NAME (repeatable) or --all"))
        #expect(try CLI.run(["compare", "--all", "--strategy", "snapshotFirst"]).status == 2)
        #expect(try CLI.run(["compare", "--all", "--snapshot", "/tmp/x.png"]).status == 2)
        let bare = CLI.temporaryPath("bare") + "/manifest.json"
        let fixture = CLI.packageRoot + "/Fixtures/default"
        try FileIO.writeAtomically(
            #"{"theme": "\#(fixture)/theme.xml", "assets": "\#(fixture)/assets", "screen": {"width": 320, "height": 480}, "stages": [{"name": "Init", "run": "init"}]}"#,
            to: bare)
        let none = try CLI.run(["compare", "--all", "--manifest", bare])
        #expect(none.status == 2)
        #expect(none.stderr.contains("\"strategies\" lists none to compare"), "\(none.stderr)")
        // snapshotFirst on needs a splash this manifest lacks: named by the user's manifest.
        let needs = try CLI.run(["compare", "--strategy", "snapshotFirst", "--manifest", bare, "--runs", "1"])
        #expect(needs.status == 2)
        #expect(needs.stderr.contains("\(bare) with snapshotFirst on: the on copy:"), "\(needs.stderr)")
        #expect(try CLI.run(["run", "--tier", "host", "--tier", "iphone-3gs"]).stderr.contains("--tier was given 2 times: this command emulates one device"))
    }
}

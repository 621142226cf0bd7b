import Foundation
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// `Why it is slow` after a run: printed with the rules that fired, carried by `--format json`.
@Suite(.serialized) struct WhySlowTests {
    @Test func aLateFirstFrameWithoutTheSnapshotIsNamedWithItsStrategy() throws {
        let directory = CLI.temporaryPath("why")
        let source = CLI.packageRoot + "/Fixtures/default"
        var manifest = try FileIO.readText(source + "/manifest.json")
        manifest = manifest.replacingOccurrences(of: "\"snapshotFirst\": true", with: "\"snapshotFirst\": false")
            .replacingOccurrences(of: #""loadingDialog": { "showAfter": 1.0, "minMessageSeconds": 1.5 }"#, with: #""reuseKeyBackgrounds": true"#)
            .replacingOccurrences(of: "\"theme.xml\"", with: "\"\(source)/theme.xml\"")
            .replacingOccurrences(of: "\"assets\": \"assets\"", with: "\"assets\": \"\(source)/assets\"")
            .replacingOccurrences(of: "\"conversions.xml\"", with: "\"\(source)/conversions.xml\"")
            .replacingOccurrences(of: "\"constants.xml\"", with: "\"\(source)/constants.xml\"")
        try FileIO.writeAtomically(manifest, to: directory + "/manifest.json")
        // The work 100 times slower (io as on the host, so the manifest's reading does not lead the
        // reasons): the first frame (the end of the first draw, about 20 ms on this host) is far past 0.4 s.
        let tiers = directory + "/tiers.json"
        try FileIO.writeAtomically(#"{"tiers": [{"name": "slow", "factors": {"cpu": 100, "io": 1, "decode": 100, "draw": 100}}]}"#, to: tiers)
        let text = try CLI.run([
            "run", "--runs", "1", "--warmup", "0", "--manifest", directory + "/manifest.json", "--tier", "slow", "--tiers", tiers, "--background-budget", "60"
        ])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains(#/\nWhy it is slow:\n(  .*\n)*  first frame at \d+(?:\.\d+)? (?:µs|ms|s) \(over 400 ms\): try snapshotFirst/#),
            "\(text.stdout)")

        let json = try CLI.run([
            "run", "--runs", "1", "--warmup", "0", "--manifest", directory + "/manifest.json", "--tier", "slow", "--tiers", tiers, "--background-budget", "60",
            "--format", "json", "--quiet"
        ])
        let result = try ResultFile.decode(Array(json.stdout.utf8), path: "stdout")
        let reason = try #require(result.slowReasons?.first { $0.rule == "lateFirstFrame" })
        #expect(reason.threshold == 0.4 && reason.value > 0.4)
    }
}

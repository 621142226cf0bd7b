import Foundation
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// `--tap`: key presses during the launch reach the calculator when the app queues input during
/// its launch, and are lost — counted, and failing `check` — when it does not.
@Suite(.serialized) struct TapTests {
    /// The default fixture with `queueInputDuringLaunch` set, its snapshot in a new directory.
    func manifest(queue: Bool) throws -> (manifest: String, snapshot: String) {
        try TestManifest.with(strategies: #""snapshotFirst": true, "queueInputDuringLaunch": \#(queue)"#, name: "taps")
    }

    static let taps = ["--tap", "0:7", "--tap", "0:×", "--tap", "0.001:6", "--tap", "0.002:="]

    @Test func tapsDuringTheLaunchAreQueuedAndApplied() throws {
        let (path, snapshot) = try manifest(queue: true)
        let outcome = try CLI.run(["run", "--manifest", path, "--runs", "1", "--warmup", "0"] + Self.taps)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(#/\ntaps: 4 delivered, 0 lost, latency median \d+(?:\.\d+)? (?:µs|ms|s) max \d+(?:\.\d+)? (?:µs|ms|s)\n/#))
        // The final frame and the saved state show 7 × 6.
        #expect(try FileIO.readText(snapshot + ".state") == "display=42\n")
    }

    @Test func withoutTheQueueTapsDuringTheLaunchAreLostAndCheckFails() throws {
        let (path, snapshot) = try manifest(queue: false)
        let output = CLI.temporaryPath("taps.json")
        let outcome = try CLI.run(["run", "--manifest", path, "--runs", "1", "--warmup", "0", "--output", output] + Self.taps)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("taps: 4 delivered, 4 lost"))
        #expect(try FileIO.readText(snapshot + ".state") == "display=1234.5\n")  // The theme's display, untouched.
        let result = try ResultFile.read(output)
        #expect(result.runs.first?.taps == TapRecord(delivered: 4, lost: 4, latencies: []))
        let check = try CLI.run(["check", "--result", output, "--baseline", output])
        #expect(check.status == 1)
        #expect(check.stderr.contains("4 taps lost during the launch"))
    }

    @Test func badTapsAreUsageErrors() throws {
        for (argument, message) in [
            ("0.1:Q", "has no such key"), ("7", "expects SECONDS:KEY"), ("-1:7", "--tap must be from 0 to 3600 seconds"),
            ("nan:7", "--tap must be from 0 to 3600 seconds"), ("0.1:", "the key is missing")
        ] {
            let outcome = try CLI.run(["run", "--runs", "1", "--tap", argument])
            #expect(outcome.status == 2, "\(argument)")
            #expect(outcome.stderr.contains(message), "\(argument): \(outcome.stderr)")
        }
    }
}

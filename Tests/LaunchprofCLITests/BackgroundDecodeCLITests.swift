import Testing
import LaunchCore

/// `backgroundDecode` from the command line: the workers' phases in the report and the trace, the
/// reuse race forced with `--force-decode-race`, and the option refused where it cannot apply.
@Suite(.serialized) struct BackgroundDecodeCLITests {
    @Test func workerPhasesAndTheDiscardedRaceAreReported() throws {
        let (manifest, _) = try TestManifest.with(strategies: #""backgroundDecode": {"threads": 2}"#, name: "decode")
        let trace = CLI.temporaryPath("decode-trace") + "/trace.json"
        let outcome = try CLI.run([
            "run", "--runs", "1", "--warmup", "0", "--all-phases", "--manifest", manifest, "--force-decode-race", "--export-chrome-trace", trace
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(#/\nOn worker threads:\n  Time for decoding [a-z-]+\.png: \d+(?:\.\d+)? (?:µs|ms|s)\n/#), "\(outcome.stdout)")
        // Whether the images are in by the first frame depends on the machine's load: only the count is certain.
        #expect(outcome.stdout.contains(" · 1 stale decodes discarded"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(#/  Time for waiting for fonts: \d+(?:\.\d+)? (?:µs|ms|s)\n/#))
        // The trace puts the decodes on the workers' own threads.
        let events = try FileIO.readText(trace)
        // (Which of the two workers takes which file, or any at all, depends on the load.)
        #expect(events.contains(#/"name":"thread_name","ph":"M","pid":1,"tid":([12]),"args":\{"name":"thread \1"\}/#))
        #expect(events.contains(#/"name":"decoding texture\.png","cat":"decode","ph":"X","ts":[0-9.]+,"dur":[0-9.]+,"pid":1,"tid":[12]/#))
    }

    @Test func withoutTheCheckTheStaleImageIsDrawn() throws {
        let (manifest, _) = try TestManifest.with(strategies: #""backgroundDecode": {"threads": 1}, "checkStaleDecodes": false"#, name: "decode-unchecked")
        let outcome = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--all-phases", "--manifest", manifest, "--force-decode-race"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("1 stale images drawn"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("stale decodes discarded"))
        // The stale image came back after the first frame: the window is drawn again, with it.
        #expect(outcome.stdout.contains(#/\nAfter interactive:\n  Time for drawing decoded images: \d+(?:\.\d+)? (?:µs|ms|s)\n/#), "\(outcome.stdout)")
    }

    @Test func theRaceNeedsBackgroundDecode() throws {
        let (manifest, _) = try TestManifest.with(strategies: #""reuseKeyBackgrounds": true"#, name: "decode-none")
        let outcome = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--all-phases", "--manifest", manifest, "--force-decode-race"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--force-decode-race: \(manifest) does not turn on strategies.backgroundDecode"), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }
}

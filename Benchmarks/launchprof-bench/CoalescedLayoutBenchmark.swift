import LaunchCore
import LaunchPipeline
import LaunchManifest

/// `coalescedLayout` on the heavy fixture (20 saved settings, two orientations): the `applying
/// settings` phase with the strategy off and on, in-process, alternated launch by launch; goals:
/// exactly one layout pass per orientation on, and the phase at least 5× faster than off. The phase's
/// `waiting for fonts` (the fixture decodes its fonts off the main thread, and the settings need their
/// glyphs) is not the strategy's work and is left out of both sides.
struct CoalescedLayoutBenchmark {
    var samples = 41

    /// One launch of the heavy fixture; the phase's seconds without its wait for the fonts, and the counts it made.
    func launch(coalesced: Bool) throws -> (seconds: Double, passes: Int, orientations: Int) {
        var text = try FileIO.readText("Fixtures/heavy/manifest.json")
        text = text.replacingOccurrences(of: "\"coalescedLayout\": true", with: "\"coalescedLayout\": \(coalesced)")
        let manifest = try ManifestLoader.parse(Array(text.utf8), path: "Fixtures/heavy/manifest.json")
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: manifest, recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        let run = RunRecord(clock: clock, recorders: [recorder])
        guard let index = run.phases.firstIndex(where: { $0.name == "applying settings" }) else { throw BenchmarkFailure("no 'applying settings' phase") }
        let waiting = run.phases.filter { $0.parent == index && $0.name == Pipeline.fontWaitPhase }.reduce(0) { $0 + $1.duration }
        return (run.phases[index].duration - waiting, run.counter("layout passes") ?? -1, run.counter("orientations laid out") ?? -1)
    }

    func report() {
        do {
            var off: [Double] = [], on: [Double] = []
            var passesOff = 0, passesOn = 0, orientations = 0
            for _ in 0..<samples {
                let a = try launch(coalesced: false), b = try launch(coalesced: true)
                off.append(a.seconds); on.append(b.seconds)
                passesOff = a.passes; passesOn = b.passes; orientations = b.orientations
            }
            let medianOff = off.sorted()[off.count / 2], medianOn = on.sorted()[on.count / 2]
            let ratio = medianOff / max(medianOn, 1e-9)
            let perOrientation = orientations > 0 ? Double(passesOn) / Double(orientations) : .nan
            print(
                "coalesced layout: applying settings off \(format(medianOff * 1000)) ms (\(passesOff) layout passes), on \(format(medianOn * 1000)) ms (\(passesOn) passes), \(format(ratio))x, goal >= 5x: \(ratio >= 5 ? "met" : "missed")"
            )
            print(
                "coalesced layout: passes per orientation with the strategy on \(format(perOrientation)), goal exactly 1: \(perOrientation == 1 ? "met" : "missed")"
            )
        } catch {
            print("coalesced layout: cannot launch the heavy fixture: \(error)")
        }
    }
}

import Foundation
import LaunchCore
import LaunchPipeline
import LaunchManifest

/// `backgroundDecode` on the heavy fixture (a 750×1334 backdrop and three more images, 2 worker
/// threads), in-process, off and on alternated launch by launch: the times to first frame and to
/// interactive. `snapshotFirst` is off on both sides, or the first frame would be the snapshot's,
/// and so is `thumbnailsFirst`, to measure the one strategy.
/// Goal: both at least 1.3× sooner with the strategy.
struct BackgroundDecodeBenchmark {
    var samples = 31

    func manifest(backgroundDecode: Bool) throws -> Manifest {
        let path = "Fixtures/heavy/manifest.json"
        guard var root = try JSONSerialization.jsonObject(with: Data(try FileIO.read(path))) as? [String: Any],
            var strategies = root["strategies"] as? [String: Any]
        else { throw BenchmarkFailure("\(path): not a manifest") }
        strategies["snapshotFirst"] = false
        for key in ["loadingDialog", "thumbnailsFirst", "checkStaleDecodes"] { strategies[key] = nil }
        strategies["backgroundDecode"] = backgroundDecode ? ["threads": 2] : nil
        root["strategies"] = strategies
        return try ManifestLoader.parse(Array(try JSONSerialization.data(withJSONObject: root)), path: path)
    }

    /// One launch: seconds from the clock's start to first frame and to interactive.
    func launch(_ manifest: Manifest) throws -> (firstFrame: Double, interactive: Double) {
        let clock = LaunchClock.startNow()
        let recorder = PhaseRecorder(clock: clock)
        let pipeline = Pipeline(manifest: manifest, recorder: recorder)
        pipeline.snapshotPath = nil
        try pipeline.launch()
        let marks = RunRecord(clock: clock, recorders: [recorder]).marks
        guard let first = marks.first(where: { $0.name == AppInterface.firstFrameMark })?.time,
            let interactive = marks.first(where: { $0.name == AppInterface.interactiveMark })?.time
        else {
            throw BenchmarkFailure("the launch sent no first frame or interactive mark")
        }
        return (first, interactive)
    }

    func report() {
        do {
            let off = try manifest(backgroundDecode: false), on = try manifest(backgroundDecode: true)
            var a: [(Double, Double)] = [], b: [(Double, Double)] = []
            for _ in 0..<samples {
                a.append(try launch(off))
                b.append(try launch(on))
            }
            func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            for (name, offValue, onValue) in [
                ("first frame", median(a.map(\.0)), median(b.map(\.0))),
                ("interactive", median(a.map(\.1)), median(b.map(\.1)))
            ] {
                let ratio = offValue / max(onValue, 1e-9)
                print(
                    "background decode: \(name) off \(format(offValue * 1000)) ms, on \(format(onValue * 1000)) ms, \(format(ratio))x sooner, goal >= 1.3x: \(ratio >= 1.3 ? "met" : "missed")"
                )
            }
        } catch {
            print("background decode: cannot launch the heavy fixture: \(error)")
        }
    }
}

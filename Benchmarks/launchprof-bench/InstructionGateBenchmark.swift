#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import LaunchCore

/// `make bench-gate`, instructions: the detection power of `launchprof check --metric instructions`.
///
/// Each trial runs the real command, `launchprof check --metric instructions --baseline-manifest A
/// --manifest B --format json`, on the default fixture without its snapshot (two baseline runs
/// and one candidate run under Callgrind). The candidate is unchanged, or its drawing repeats a
/// fraction more of its own work (`test.slowdown`). Both manifests carry the slowdown key (0 for the
/// baseline), so they differ only in that number. Two trials run at once: counts do not depend on load.
struct InstructionGateBenchmark: Sendable {
    var noChangeTrials: Int
    var changeTrials: Int
    let executable = ".build/release/launchprof"

    func manifest(fraction: Double) throws -> String {
        let root = FileIO.parentDirectory(of: FileIO.parentDirectory(of: FileIO.parentDirectory(of: #filePath)))
        let fixture = root + "/Fixtures/default"
        let json = """
            {"name": "default", "theme": "\(fixture)/theme.xml", "assets": "\(fixture)/assets",
             "screen": {"width": 320, "height": 480, "scale": 1},
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}, {"name": "loading images", "run": "images"},
                        {"name": "drawing", "run": "draw"}],
             "test": {"slowdown": {"stage": "drawing", "fraction": \(String(format: "%.3f", fraction))}}}
            """
        let path = "/tmp/launchprof-igate-\(getpid())-\(fraction).json"
        try FileIO.writeAtomically(json, to: path)
        return path
    }

    struct Trial: Sendable {
        var exit: Int32
        var regressions: [String]
        var drawingChange: Double?
    }

    /// Runs one check and reads its JSON report.
    func trial(base: String, candidate: String) -> Trial {
        let out = "/tmp/launchprof-igate-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(out) }
        let command = "\(executable) check --metric instructions --quiet --baseline-manifest \(base) --manifest \(candidate) --format json > \(out) 2>/dev/null"
        let status = system(command)
        let exit = (status >> 8) & 0xff
        guard let data = FileManager.default.contents(atPath: out),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return Trial(exit: exit, regressions: [], drawingChange: nil)
        }
        let rows = json["rows"] as? [[String: Any]] ?? []
        let drawing = rows.first { $0["path"] as? String == "drawing" }
        return Trial(exit: exit, regressions: json["regressions"] as? [String] ?? [],
                     drawingChange: drawing?["changePercent"] as? Double)
    }

    func run() throws {
        guard FileIO.exists(executable) else {
            print("build first: swift build -c release --product launchprof")
            return
        }
        let base = try manifest(fraction: 0)
        let cells: [(String, Double)] = [("no change", 0), ("1% more drawing work", 0.01), ("2% more drawing work", 0.02),
                                         ("5% more drawing work", 0.05), ("10% more drawing work", 0.10)]
        print("gate (instructions): check --metric instructions, 2 baseline runs + 1 candidate run under Callgrind; default fixture without snapshot; threshold 1%; host \(HostInfo.current().cpuModel), \(HostInfo.current().cores) cores")
        for (label, fraction) in cells {
            let trials = fraction == 0 ? noChangeTrials : changeTrials
            let candidate = try manifest(fraction: fraction)
            let results = UnsafeMutableBufferPointer<Trial>.allocate(capacity: trials)
            defer { results.deallocate() }
            // Each worker writes only its own slots.
            nonisolated(unsafe) let slots = results
            let start = MonotonicClock.nanoseconds()
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                for i in stride(from: worker, to: trials, by: 2) {
                    (slots.baseAddress! + i).initialize(to: trial(base: base, candidate: candidate))
                }
            }
            let seconds = LaunchClock.seconds(MonotonicClock.nanoseconds() - start)
            let all = Array(results)
            let failed = all.filter { $0.exit == 1 }.count
            let named = all.filter { $0.regressions.contains("drawing") }.count
            let errors = all.filter { $0.exit != 0 && $0.exit != 1 }.count
            let changes = all.compactMap(\.drawingChange)
            let growth = changes.isEmpty ? "-" : "\(format(changes.min()!))%…\(format(changes.max()!))%"
            let what = fraction == 0 ? "wrongly failed" : "detected"
            print("gate (instructions): \(label): \(what) \(failed)/\(trials) = \(format(Double(failed) / Double(max(trials, 1)) * 100))% (drawing named in \(named); errors \(errors); drawing's count changed by \(growth)) [\(Int(seconds)) s]")
        }
    }
}

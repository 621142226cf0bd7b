#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchRunner
import LaunchStats

/// `make bench-gate`: the detection power of `launchprof check`, measured on this machine.
///
/// Each trial launches a baseline and a candidate (10 runs after 1 warm-up each, the defaults) of
/// the heavy fixture without its snapshot stage, and asks the comparison `check` uses whether anything
/// regressed. The candidate either is unchanged (a false failure if flagged) or has a precise
/// slowdown injected into its drawing stage (detected if flagged). Both modes are measured:
/// interleaved (A B B A … in one go, `check --baseline-manifest`) and stored baseline (all of A,
/// then all of B, as with a result recorded earlier).
struct GateBenchmark {
    var trials: Int
    let executable = ".build/release/launchprof"

    func manifest(slowdown: Double?) throws -> String {
        let root = FileIO.parentDirectory(of: FileIO.parentDirectory(of: FileIO.parentDirectory(of: #filePath)))
        let fixture = root + "/Fixtures/heavy"
        let test = slowdown.map { #", "test": {"slowdown": {"stage": "drawing", "fraction": \#($0)}}"# } ?? ""
        let json = """
            {"name": "heavy", "theme": "\(fixture)/theme.xml", "assets": "\(fixture)/assets",
             "screen": {"width": 375, "height": 667, "scale": 2}, "orientations": ["portrait", "landscape"],
             "stages": [{"name": "Init", "run": "init"}, {"name": "loading themes", "run": "theme"},
                        {"name": "building layouts", "run": "layout"}, {"name": "loading images", "run": "images"},
                        {"name": "drawing", "run": "draw"}]\(test)}
            """
        let path = "/tmp/launchprof-gate-\(getpid())-\(slowdown ?? 0).json"
        try FileIO.writeAtomically(json, to: path)
        return path
    }

    func session(_ manifest: String) -> LaunchSession {
        LaunchSession(launcher: AppLauncher(executable: executable, arguments: ["__app", "--manifest", manifest], timeout: 60),
                      runs: 10, warmup: 1)
    }

    func result(_ runs: [RunRecord]) -> LaunchResult {
        LaunchResult(date: "", manifest: ManifestInfo(name: "heavy", path: "", sha256: ""), host: HostInfo.current(), runs: runs)
    }

    /// Whether `check` would fail: any phase or the total regressed.
    func flagged(_ a: [RunRecord], _ b: [RunRecord], paired: Bool) -> (Bool, Bool) {
        let comparison = Comparison(baseline: result(a), candidate: result(b), paired: paired)
        let regressions = comparison.regressions
        return (!regressions.isEmpty, regressions.contains { $0.path == "drawing" })
    }

    func run() throws {
        guard FileIO.exists(executable) else {
            print("build first: swift build -c release --product launchprof")
            return
        }
        let base = try manifest(slowdown: nil)
        let cells: [(String, Double?)] = [("no change", nil), ("5% slowdown of drawing", 0.05), ("10% slowdown of drawing", 0.10)]
        print("gate: \(trials) trials per cell; each side 10 runs after 1 warm-up; heavy fixture without snapshot; host \(HostInfo.current().cpuModel), \(HostInfo.current().cores) cores")
        for interleaved in [true, false] {
            for (label, slowdown) in cells {
                let candidate = try manifest(slowdown: slowdown)
                var flaggedCount = 0, drawingCount = 0
                let start = MonotonicClock.nanoseconds()
                for _ in 0..<trials {
                    let a: [RunRecord], b: [RunRecord]
                    if interleaved {
                        (a, b) = try LaunchSession.interleaved(session(base), session(candidate))
                    } else {
                        a = try session(base).run()
                        b = try session(candidate).run()
                    }
                    let (any, drawing) = flagged(a, b, paired: interleaved)
                    if any { flaggedCount += 1 }
                    if drawing { drawingCount += 1 }
                }
                let seconds = LaunchClock.seconds(MonotonicClock.nanoseconds() - start)
                let share = Double(flaggedCount) / Double(trials) * 100
                let what = slowdown == nil ? "wrongly failed" : "detected"
                print("gate: \(interleaved ? "interleaved" : "stored baseline"), \(label): \(what) \(flaggedCount)/\(trials) = \(format(share))% (drawing named in \(drawingCount)) [\(Int(seconds)) s]")
            }
        }
    }
}

import Foundation
import LaunchCore
import LaunchExport
import LaunchResults

/// `launchprof exec --runs 200 -- /bin/true` against `hyperfine -N --runs 200 /bin/true`: the mean
/// wall time each reports for the same trivial program (goal: launchprof's ≤ 1.05× hyperfine's), so
/// what `exec` adds to a run is no more than what the reference tool adds. Both are run alternately,
/// `rounds` times each, and the medians of their means compared. Skipped, saying so, without hyperfine
/// (`make bench` installs the Debian package when it can).
struct ExecOverheadBenchmark {
    var rounds = 5
    var runs = 200

    func report() {
        guard let hyperfine = ["/usr/bin/hyperfine", "/usr/local/bin/hyperfine"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("exec overhead: skipped: hyperfine is not installed (apt-get install hyperfine)")
            return
        }
        let directory = NSTemporaryDirectory() + "launchprof-exec-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var ours: [Double] = [], theirs: [Double] = []
        for round in 0..<rounds {
            let result = "\(directory)/exec-\(round).json", export = "\(directory)/hyperfine-\(round).json"
            guard run(benchedLaunchprof, ["exec", "--runs", String(runs), "--warmup", "3", "--quiet", "--output", result, "--", "/bin/true"]),
                run(hyperfine, ["-N", "--runs", String(runs), "--warmup", "3", "--style", "none", "--export-json", export, "/bin/true"])
            else {
                print("exec overhead: a run failed")
                return
            }
            guard let exec = try? ResultFile.read(result), let mean = Self.hyperfineMean(export) else {
                print("exec overhead: cannot read the results")
                return
            }
            ours.append(exec.runs.map(\.total).reduce(0, +) / Double(exec.runs.count))
            theirs.append(mean)
        }
        let a = ours.sorted()[ours.count / 2], b = theirs.sorted()[theirs.count / 2]
        let ratio = a / b
        print(
            "exec overhead: /bin/true mean wall, launchprof exec \(format(a * 1e6)) µs, hyperfine -N \(format(b * 1e6)) µs (\(runs) runs, median of \(rounds) alternated rounds)"
        )
        print("exec overhead: ratio \(format(ratio))x, goal <= 1.05x: \(ratio <= 1.05 ? "met" : "missed")")
    }

    /// hyperfine's `results[0].mean`, in seconds.
    static func hyperfineMean(_ path: String) -> Double? {
        hyperfineResult(path)?["mean"] as? Double
    }

    /// hyperfine's `results[0].times`, each run's wall time in seconds.
    static func hyperfineTimes(_ path: String) -> [Double]? {
        hyperfineResult(path)?["times"] as? [Double]
    }

    private static func hyperfineResult(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let results = json["results"] as? [[String: Any]]
        else { return nil }
        return results.first
    }

    /// The installed hyperfine, if any.
    static var hyperfine: String? {
        ["/usr/bin/hyperfine", "/usr/local/bin/hyperfine"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    }

    private func run(_ executable: String, _ arguments: [String]) -> Bool {
        Self.run(executable, arguments)
    }

    /// Runs a command with its output discarded; `true` when it exits 0.
    static func run(_ executable: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

import Foundation
import LaunchCore
import LaunchExport
import LaunchResults

/// What a user waits for around short programs (issue 26, item 8), against hyperfine on the same
/// machine in the same minute, the two sides alternated round by round:
///
/// - session: `launchprof exec --runs 100 -- /bin/true` end to end (the process's wall time: start,
///   101 runs, result, exit) against `hyperfine -N --runs 100 /bin/true` end to end; goal ≤ 1.5×.
/// - median bias: the median run of `git --version` and `perl -e 1` as launchprof measures it against
///   hyperfine's, all rounds' runs pooled per side; goal within 3% or 30 µs.
///
/// The spread (lowest and highest round) is printed beside each, since the machine may be shared.
struct ExecSessionBenchmark {
    var rounds = 11
    var sessionRuns = 100
    var biasRounds = 10
    var biasRuns = 20

    func report() {
        guard let hyperfine = ExecOverheadBenchmark.hyperfine else {
            print("exec session: skipped: hyperfine is not installed (apt-get install hyperfine)")
            return
        }
        let directory = NSTemporaryDirectory() + "launchprof-session-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        print("exec session: machine load \(machineLoad())")
        session(hyperfine, runs: sessionRuns)
        // The fixed cost: launchprof's start, the session's set-up and end, around one run.
        session(hyperfine, runs: 1)
        for command in [["/usr/bin/git", "--version"], ["/usr/bin/perl", "-e", "1"]] where FileManager.default.isExecutableFile(atPath: command[0]) {
            bias(hyperfine, command, directory: directory)
        }
    }

    /// The end-to-end ratio: the median of each side's wall times over the rounds (the goal is for
    /// ``sessionRuns`` runs; with another number it is only printed).
    func session(_ hyperfine: String, runs: Int) {
        var ours: [Double] = [], theirs: [Double] = []
        var ourCPU: [Double] = [], theirCPU: [Double] = []
        for round in 0..<rounds {
            let lp = { measured(benchedLaunchprof, ["exec", "--runs", String(runs), "--quiet", "--", "/bin/true"]) }
            let hf = { measured(hyperfine, ["-N", "--runs", String(runs), "--style", "none", "/bin/true"]) }
            // A B, then B A: neither side always goes first.
            let (a, b) =
                round % 2 == 0
                ? (lp(), hf())
                : {
                    let b = hf(); return (lp(), b)
                }()
            guard let a, let b else {
                print("exec session: a run failed")
                return
            }
            ours.append(a.wall)
            theirs.append(b.wall)
            ourCPU.append(a.cpu)
            theirCPU.append(b.cpu)
        }
        let a = medianOf(ours), b = medianOf(theirs)
        let ratios = zip(ours, theirs).map { $0 / $1 }
        print(
            "exec session: /bin/true x\(runs) end to end, launchprof exec \(format(a * 1e3)) ms, hyperfine -N \(format(b * 1e3)) ms (median of \(rounds) alternated rounds; per-round ratio \(format(ratios.min() ?? 0))x to \(format(ratios.max() ?? 0))x)"
        )
        // CPU time moves less with the machine's load than wall time (the goal is on wall time).
        let cpuA = medianOf(ourCPU), cpuB = medianOf(theirCPU)
        print(
            "exec session: /bin/true x\(runs) CPU (user + system, with their children), launchprof exec \(format(cpuA * 1e3)) ms, hyperfine -N \(format(cpuB * 1e3)) ms, ratio \(format(cpuA / cpuB))x"
        )
        guard runs == sessionRuns else { return }
        print("exec session: ratio \(format(a / b))x, goal <= 1.5x: \(a / b <= 1.5 ? "met" : "missed")")
    }

    /// The bias of launchprof's median run of `command` against hyperfine's.
    func bias(_ hyperfine: String, _ command: [String], directory: String) {
        var ours: [Double] = [], theirs: [Double] = []
        var roundBiases: [Double] = []
        let name = command.joined(separator: " ")
        for round in 0..<biasRounds {
            let result = "\(directory)/bias-\(round).json", export = "\(directory)/bias-\(round)-hyperfine.json"
            let lp = {
                ExecOverheadBenchmark.run(
                    benchedLaunchprof, ["exec", "--runs", String(biasRuns), "--warmup", "1", "--quiet", "--output", result, "--"] + command)
            }
            let hf = {
                ExecOverheadBenchmark.run(
                    hyperfine, ["-N", "--runs", String(biasRuns), "--warmup", "1", "--style", "none", "--export-json", export, command.joined(separator: " ")])
            }
            let ok = round % 2 == 0 ? lp() && hf() : hf() && lp()
            guard ok, let exec = try? ResultFile.read(result), let times = ExecOverheadBenchmark.hyperfineTimes(export), !times.isEmpty else {
                print("median bias (\(name)): a run failed")
                return
            }
            let totals = exec.runs.map(\.total)
            ours += totals
            theirs += times
            roundBiases.append(medianOf(totals) / medianOf(times) - 1)
        }
        let a = medianOf(ours), b = medianOf(theirs)
        let percent = (a / b - 1) * 100, micro = (a - b) * 1e6
        let met = abs(percent) <= 3 || abs(micro) <= 30
        print(
            "median bias (\(name)): launchprof exec \(format(a * 1e6)) µs, hyperfine -N \(format(b * 1e6)) µs, \(percent >= 0 ? "+" : "")\(format(percent))% (\(micro >= 0 ? "+" : "")\(format(micro)) µs; \(biasRounds) alternated rounds of \(biasRuns) runs pooled; per-round \(format((roundBiases.min() ?? 0) * 100))% to \(format((roundBiases.max() ?? 0) * 100))%, median \(format(medianOf(roundBiases) * 100))%)"
        )
        print("median bias (\(name)): goal within 3% or 30 µs: \(met ? "met" : "missed")")
    }

    /// The wall and CPU time of a command, seconds; `nil` when it fails.
    private func measured(_ executable: String, _ arguments: [String]) -> (wall: Double, cpu: Double)? {
        guard let run = timedSpawn([executable] + arguments), run.status == 0 else { return nil }
        return (run.wall, run.cpu)
    }
}

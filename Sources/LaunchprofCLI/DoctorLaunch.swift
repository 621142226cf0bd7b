import LaunchCore
import LaunchDoctor

/// `doctor`'s launch findings: the default fixture launched for about 3 s, its run-to-run spread,
/// and the smallest slowdown `check --runs auto` can detect with it (``LaunchSpread``).
enum DoctorLaunch {
    /// The default launch, measured for about 3 s (5 to 20 runs after a warm-up): its spread, and
    /// what `check --runs auto` can detect with it at the default budget.
    static func findings() throws -> [Finding] {
        guard DefaultManifest.locate() != nil else {
            return [
                Finding(
                    id: "launch-spread", status: .note, summary: "\(DefaultManifest.relativePath) was not found: the launch was not measured",
                    advice: "run doctor from the launchprof checkout")
            ]
        }
        let profile = try AppLaunchPlan(options: try ProfileOptions.parse(["--warmup", "1", "--quiet"]))
        let runner = PlanRunner(quiet: true)
        // A warm-up and one run, timed whole (launchprof's own cost included), set how many runs fit in about 3 s.
        var start = MonotonicClock.nanoseconds()
        _ = try runner.run(profile, runs: 1)
        let perRun = LaunchClock.seconds(MonotonicClock.nanoseconds() - start) / 2
        let runs = min(20, max(5, Int(3 / max(perRun, 0.001))))
        start = MonotonicClock.nanoseconds()
        let result = try runner.run(profile, runs: runs)
        let wall = LaunchClock.seconds(MonotonicClock.nanoseconds() - start) / Double(runs + profile.warmup)
        let totals = result.runs.map(\.total)
        guard let spread = LaunchSpread(totals: totals) else {
            return [Finding(id: "launch-spread", status: .problem, summary: "the default launch gave fewer than 5 usable runs")]
        }
        return spread.findings(overhead: max(0, wall - spread.median))
    }
}

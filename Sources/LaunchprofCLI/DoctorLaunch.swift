import LaunchCore
import LaunchDoctor

/// `doctor`'s launch findings: the default fixture launched for about 3 s, its run-to-run spread,
/// and the smallest slowdown `check --runs auto` can detect with it (``LaunchSpread``); with
/// `--tier NAME`, the same launch on that tier for about 8 s (`tier-spread`).
struct DoctorLaunch {
    /// The default launch, and on `--tier` the same on that tier; `nil` without the default fixture.
    let plain: AppLaunchPlan?
    let onTier: (name: String, plan: AppLaunchPlan)?

    /// Resolves the launches (an unknown tier is refused here, before any check or launch).
    init(tier: String?) throws {
        plain = DefaultManifest.locate() == nil ? nil : try Self.plan([])
        onTier = plain == nil ? nil : try tier.map { ($0, try Self.plan(["--tier", $0])) }
    }

    /// The launch findings; a tier adds `tier-spread`.
    func findings() throws -> [Finding] {
        guard let plain else {
            return [
                Finding(
                    id: "launch-spread", status: .note, summary: "\(DefaultManifest.relativePath) was not found: the launch was not measured",
                    advice: "run doctor from the launchprof checkout")
            ]
        }
        guard let (spread, overhead) = try Self.measure(plain, seconds: 3) else {
            return [Finding(id: "launch-spread", status: .problem, summary: "the default launch gave fewer than 5 usable runs")]
        }
        var findings = spread.findings(overhead: overhead)
        if let (tier, plan) = onTier {
            findings.append(
                try Self.measure(plan, seconds: 8)?.spread.tierFinding(tier: tier)
                    ?? Finding(id: "tier-spread", status: .problem, summary: "the default launch on \(PlainText.oneLine(tier)) gave fewer than 5 usable runs"))
        }
        return findings
    }

    /// The default launch after a warm-up, quietly, with `arguments` added (a tier).
    static func plan(_ arguments: [String]) throws -> AppLaunchPlan {
        try AppLaunchPlan(options: try ProfileOptions.parse(["--warmup", "1", "--quiet"] + arguments))
    }

    /// `profile` measured for about `seconds` (5 to 20 runs after a warm-up, as many as fit): the
    /// spread of its totals, and launchprof's own cost a run beyond the launch; `nil` with fewer
    /// than 5 usable runs.
    static func measure(_ profile: AppLaunchPlan, seconds: Double) throws -> (spread: LaunchSpread, overhead: Double)? {
        let runner = PlanRunner(quiet: true)
        // A warm-up and one run, timed whole (launchprof's own cost included), set how many runs fit.
        var start = MonotonicClock.nanoseconds()
        _ = try runner.run(profile, runs: 1)
        let perRun = LaunchClock.seconds(MonotonicClock.nanoseconds() - start) / 2
        let runs = min(20, max(5, Int(seconds / max(perRun, 0.001))))
        start = MonotonicClock.nanoseconds()
        let result = try runner.run(profile, runs: runs)
        let wall = LaunchClock.seconds(MonotonicClock.nanoseconds() - start) / Double(runs + profile.warmup)
        guard let spread = LaunchSpread(totals: result.runs.map(\.total)) else { return nil }
        return (spread, max(0, wall - spread.median))
    }
}

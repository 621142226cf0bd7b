import ArgumentParser
import LaunchCore
import LaunchDoctor

/// `launchprof doctor`: what makes measurements on this machine noisy or impossible, each finding
/// with what to do (the checks are LaunchDoctor's; docs/doctor.md).
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Say what makes launch measurements on this machine noisy or impossible, and what to do.",
        discussion: """
            Looks at the load and busy processes, CPU frequency scaling, the core's clock (read for 1 s, and against the cached calibration's), cgroups (for exec --tier), Valgrind (--metric instructions), perf, and the page cache (--cold); then launches the default fixture for about 3 s to measure its run-to-run spread and the smallest slowdown `check --runs auto` can detect here at its default budget. Takes under 10 s. Exit 0 whatever it finds (2 when it cannot run).

            Examples:
              launchprof doctor
              launchprof doctor --format json
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(name: .long, help: "Output format: text or json (default: text).")
    var format: Format = .text

    @Flag(name: .customLong("no-launch"), help: "Skip the launches (the spread and detectable-change findings).")
    var noLaunch = false

    func run() throws {
        var findings = Doctor(system: LiveSystem()).findings()
        if !noLaunch { findings += try launchFindings() }
        print(format == .json ? DoctorReport.json(findings) : DoctorReport.text(findings), terminator: "")
    }

    /// The default launch, measured for about 3 s (5 to 20 runs after a warm-up): its spread, and
    /// what `check --runs auto` can detect with it at the default budget.
    private func launchFindings() throws -> [Finding] {
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

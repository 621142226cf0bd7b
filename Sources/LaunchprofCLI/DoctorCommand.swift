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
              launchprof doctor --tier iphone-3gs   # and a tier's spread, about 8 s more
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(name: .long, help: "Output format: text or json (default: text).")
    var format: Format = .text

    @Flag(name: .customLong("no-launch"), help: "Skip the launches (the spread and detectable-change findings).")
    var noLaunch = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also launch the default fixture on this device tier for about 8 s more: how far a tier's 20-run median moves here, and the smallest slowdown a check against a stored baseline can see on it (tier-spread).",
            valueName: "name"))
    var tier: String?

    func validate() throws {
        if noLaunch, tier != nil { throw ValidationError("--tier launches the default fixture: it cannot go with --no-launch") }
    }

    func run() throws {
        let launch = noLaunch ? nil : try DoctorLaunch(tier: tier)
        var findings = Doctor(system: LiveSystem()).findings()
        if let launch { findings += try launch.findings() }
        print(format == .json ? DoctorReport.json(findings) : DoctorReport.text(findings), terminator: "")
    }
}

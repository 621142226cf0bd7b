import LaunchCore
import LaunchExport
import LaunchRunner
import LaunchStats

/// What a program's launches make: the result, with its command, tier, warnings and functions.
extension ProgramLaunchPlan {
    func result(_ records: [RunRecord]) -> LaunchResult {
        let arguments = command.arguments
        let identity = SHA256.hex(of: SHA256.digest(Array(arguments.joined(separator: "\u{0}").utf8)))
        var result = LaunchResult(
            date: ResultMetadata.date(),
            manifest: ManifestInfo(name: name, path: "", sha256: identity),
            host: HostInfo.current(), git: recordsGitState ? ResultMetadata.git() : nil,
            configuration: RunConfiguration(runs: records.count, warmup: warmup, mode: cold ? .cold : .warm, timeout: timeout, tier: tierInfo, metric: metric),
            runs: records)
        result.command = CommandInfo(arguments: arguments, shell: command.shell, end: end, trace: trace, throttle: throttleText)
        result.warnings = LaunchWarning.warnings(for: result, memoryBudget: nil, stretchLimit: stretchLimit).map(\.message)
        if metric == .instructions, let warning = Self.uncountedPhasesWarning(records) { result.warnings.append(warning) }
        result.addFunctions(of: records, countedBy: launcher)
        return result
    }

    /// The shortest program the runs' throttle stretches honestly, when a tier slows the CPU.
    var stretchLimit: StretchLimit? {
        guard let spec = launcher.throttle, spec.cpuFactor > 1, let mechanism = launcher.throttleMechanism else { return nil }
        return StretchLimit(cpuSeconds: mechanism.shortestStretchedCPUSeconds, mechanism: mechanism.rawValue)
    }

    /// Phases reported over the protocol without the client's Callgrind dumps: the program gets its
    /// whole-process count only, and the warning says why.
    static func uncountedPhasesWarning(_ records: [RunRecord]) -> String? {
        guard records.contains(where: { !$0.phases.isEmpty && $0.phases.allSatisfy { $0.instructions == nil } }) else { return nil }
        return
            "the program reported its phases but made no Callgrind dumps at their boundaries, so only its whole-process instruction count is known: a C program needs <valgrind/callgrind.h> when it is compiled (the valgrind package), the Swift client a rebuild with it installed, the Python client a C compiler for launchprof's helper (docs/instructions.md)"
    }
}

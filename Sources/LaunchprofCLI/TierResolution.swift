import LaunchCore
import LaunchExport
import LaunchRunner
import LaunchTiers

/// `--tier` for a launch, whatever its target: the tier resolved once (on this host's calibration or a
/// stored baseline's), its memory budget as each run's limit with `--enforce-memory`, and for a program
/// the throttle that applies its cpu factor from outside (the built-in app stretches its own phases:
/// ``AppLaunchPlan/emulation(_:)``).
extension LaunchOptions {
    /// The `--tier` resolved on this host (or on `calibration`, a stored baseline's), once; `nil` without `--tier`.
    func resolvedTier(calibration: (HostReference, CalibrationInfo)? = nil) throws -> ResolvedTier? {
        guard let tier else { return nil }
        return try ResolvedTier.resolve(named: tier, tiersFile: tiers, calibration: calibration) {
            let outcome = try HostCalibration.current()
            return (outcome.calibration.reference, outcome.info)
        }
    }

    /// `--enforce-memory`: the tier's memory budget (bytes), each run's memory limit; `nil` without the
    /// flag. Refused for a tier that has no budget.
    func enforcedMemoryLimit(_ tier: ResolvedTier?) throws -> Int? {
        guard enforceMemory else { return nil }
        guard let budget = tier?.memoryBudget else { throw InputError.refused(.noMemoryBudget(tier: tier?.device.name ?? self.tier ?? "")) }
        return budget
    }

    /// `--tier` for a program: the tier's cpu factor on this host (calibrated as `run` does), applied
    /// from outside by a throttle of every run, and with `--enforce-memory` its memory budget as the
    /// run's memory limit. The mechanism is chosen once (`forced`: `--throttle`, else the best
    /// available) and used by every run. Returns what the result records: the tier (its cpu factor
    /// only) and how it was applied; `nil`s without `--tier`.
    func throttle(_ launcher: inout ProcessLauncher, forcing forced: ThrottleMechanism?) throws -> (TierInfo?, String?) {
        guard let tier = try resolvedTier() else { return (nil, nil) }
        let device = tier.device
        let factor = tier.cpuFactor
        let limit = try enforcedMemoryLimit(tier)
        let spec = ThrottleSpec(cpuFactor: factor, memoryLimit: limit, cores: device.throttledCores)
        let mechanism: ThrottleMechanism, fallback: String?
        do {
            let probe = try RunThrottle.make(spec, forcing: forced)
            (mechanism, fallback) = (probe.mechanism, probe.fallbackReason)
            probe.finish()
        } catch {
            throw InputError.about(subject: "--tier \(device.name)", error)
        }
        launcher.throttle = spec
        launcher.throttleMechanism = mechanism
        launcher.memoryLimitLabel = "\(device.name) memory budget"
        var info = tier.info
        info.factors = [.cpu: factor]
        return (info, Self.throttleText(spec, by: mechanism, fallback: fallback))
    }

    /// How a program's throttle applies its tier, as the result's `command.throttle` says it.
    static func throttleText(_ spec: ThrottleSpec, by mechanism: ThrottleMechanism, fallback: String?) -> String {
        var text = "cpu ×\(SecondsFormat.format(spec.cpuFactor, precision: 1)) on \(spec.cores) core\(spec.cores == 1 ? "" : "s") by \(mechanism.rawValue)"
        if let fallback { text += " (no cgroup: \(fallback))" }
        if let limit = spec.memoryLimit { text += ", memory limit \(limit >> 20) MiB" }
        text += "; the io, decode and draw factors cannot be applied to a program from outside"
        return text
    }
}

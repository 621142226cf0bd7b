import LaunchCore

/// Whether a baseline was measured where its candidate was: the differences `check` refuses
/// (exit 2; `--allow-other-environment` makes them caveats) and `diff` prints as caveats.
///
/// A difference is named only when both results state the field: a result from before a field was
/// recorded (no calibration, no build) is not refused for lacking it.
public enum EnvironmentCheck {
    /// Another host (CPU model, cores, kernel, architecture), another tier, another metric, or a tier
    /// calibrated on other reference workloads: each as one sentence naming both sides.
    public static func differences(baseline a: LaunchResult, candidate b: LaunchResult) -> [String] {
        var out: [String] = []
        let tierA = a.configuration?.tier?.name ?? "host", tierB = b.configuration?.tier?.name ?? "host"
        if tierA != tierB { out.append("the results are from different tiers (\(tierA) and \(tierB))") }
        let hosts = hostDifferences(a.host, b.host)
        if !hosts.isEmpty { out.append("the results are from different hosts (\(hosts.joined(separator: "; ")))") }
        let metricA = a.configuration?.metric ?? .time, metricB = b.configuration?.metric ?? .time
        if metricA != metricB { out.append("the results measured different metrics (\(metricA.rawValue) and \(metricB.rawValue))") }
        if let versionA = a.configuration?.tier?.calibration?.referenceVersion, let versionB = b.configuration?.tier?.calibration?.referenceVersion,
            versionA != versionB
        {
            out.append("the tiers were calibrated on different reference workloads (version \(versionA) and \(versionB))")
        }
        return out
    }

    /// What differs between two hosts' fingerprints (CPU model, cores, kernel, architecture), each
    /// as `what: A vs B`; empty when it is the same host as far as a measurement can tell.
    public static func hostDifferences(_ a: HostInfo, _ b: HostInfo) -> [String] {
        var out: [String] = []
        if a.cpuModel != b.cpuModel { out.append("CPU model \(a.cpuModel) vs \(b.cpuModel)") }
        if a.cores != b.cores { out.append("\(a.cores) vs \(b.cores) cores") }
        if a.os != b.os { out.append("kernel \(a.os) vs \(b.os)") }
        if a.architecture != b.architecture { out.append("architecture \(a.architecture) vs \(b.architecture)") }
        return out
    }

    /// What differs in how the two results were made that does not refuse a comparison, but may
    /// move it: the Swift toolchain, launchprof's version and its build configuration.
    public static func toolDifferences(baseline a: LaunchResult, candidate b: LaunchResult) -> [String] {
        var out: [String] = []
        if a.host.swiftVersion != b.host.swiftVersion { out.append("Swift \(a.host.swiftVersion) vs \(b.host.swiftVersion)") }
        if a.tool.version != b.tool.version { out.append("launchprof \(a.tool.version) vs \(b.tool.version)") }
        if let buildA = a.tool.build, let buildB = b.tool.build, buildA != buildB { out.append("a \(buildA) vs a \(buildB) build") }
        guard !out.isEmpty else { return [] }
        return ["the results were made by different launchprof builds (\(out.joined(separator: "; ")))"]
    }
}

import LaunchCore
import LaunchExport
import LaunchTiers

/// What `launchprof tiers` prints: the tier table with each tier's factors on this host, the host's
/// reference times (`--calibrate`), or one calibration sample (`--reference-sample`, in a fresh process).
enum TierListing {
    /// One sample of a calibration, measured in this process: a JSON line.
    static func referenceSample(repetitions: Int) throws -> String {
        try HostReference.measure(repetitions: min(max(repetitions, 1), 1000), minimumSeconds: Calibration.triesSeconds).jsonLine
    }

    /// `--calibrate`: this host's reference times in seconds, as a tier's `"referenceSeconds"`.
    static func referenceSeconds(_ reference: HostReference) -> String {
        let fields = PhaseKind.allCases.map { "\"\($0.rawValue)\": \(SecondsFormat.format(reference.seconds[$0] ?? 0, precision: 6))" }
        return "{ \(fields.joined(separator: ", ")) }\n"
    }

    /// Every tier of `table` with its factors on this host, then how they were found.
    static func text(_ table: TierTable, calibration: HostReference, info: CalibrationInfo) -> String {
        var rows = [["tier", "cpu", "io", "decode", "draw", "memory", "cores", "description"]]
        for tier in table.tiers {
            let factors = tier.factors(host: calibration)
            rows.append(
                [tier.name] + PhaseKind.allCases.map { "×" + SecondsFormat.format(factors[$0] ?? 1, precision: 1) }
                    + [tier.memoryBudget.map(MemoryFormat.mebibytes) ?? "-", tier.cores.map(String.init) ?? "-", tier.description])
        }
        return TextTable.render(rows) + "\n"
            + "Factors on this host (\(HostInfo.current().cpuModel)): device reference time ÷ host reference time, at least 1.\n"
            + calibrationLine(info) + "\n"
    }

    /// `Calibration: cached, made 2026-11-25T20:51:03Z in 10 processes, counted in clock cycles at 4.36 GHz
    /// (reference version 2; …).`
    static func calibrationLine(_ info: CalibrationInfo) -> String {
        let how = info.source == "cache" ? "cached" : info.source == "baseline" ? "the baseline's" : "measured now"
        let clock = info.clockGigahertz.map { ", counted in clock cycles at \(SecondsFormat.format($0, precision: 2)) GHz" } ?? ""
        return
            "Calibration: \(how), made \(info.made) in \(info.processes) processes\(clock) (reference version \(info.referenceVersion); `launchprof tiers --calibrate` measures again)."
    }
}

import ArgumentParser
import LaunchTiers

/// `launchprof tiers`: lists the device tiers and what their factors are on this host.
struct TiersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiers",
        abstract: "List the device tiers and their factors on this host.",
        discussion: """
            Calibrated tiers give the device's time for launchprof's fixed reference workloads; this host runs the same workloads and each factor is device time ÷ host time, so a tier means the same device on a fast laptop and on a slow CI runner.

            This host's times are measured once, in \(Calibration.defaultProcesses) fresh processes (a few seconds), and cached per host (CPU model, cores, kernel, reference version) under $XDG_CACHE_HOME/launchprof or ~/.cache/launchprof; every later run uses the cached calibration, so factors hold still. --calibrate measures again and replaces it.

            Examples:
              launchprof tiers
              launchprof tiers --tiers my-devices.json
              # measure this host again (replacing the cached calibration); prints its reference times, for writing a tier
              launchprof tiers --calibrate
            """
    )

    @Option(name: .long, help: ArgumentHelp("A tiers file adding or overriding tiers.", valueName: "file"))
    var tiers: String?

    @Flag(
        name: .long,
        help: "Measure this host's reference-workload times again, replace the cached calibration, and print them (seconds) as a tier's \"referenceSeconds\".")
    var calibrate = false

    /// One sample of a calibration, in this fresh process (what ``HostCalibration/sampleProcess()`` runs).
    @Flag(name: .customLong("reference-sample"), help: .hidden)
    var referenceSample = false

    /// Tries of each workload in that process (the fastest counts).
    @Option(name: .customLong("repetitions"), help: .hidden)
    var repetitions = Calibration.repetitions

    func run() throws {
        if referenceSample { return print(try TierListing.referenceSample(repetitions: repetitions)) }
        let table = try TierTable.load(userFile: tiers)
        let outcome = try HostCalibration.current(refresh: calibrate)
        let reference = outcome.calibration.reference
        print(calibrate ? TierListing.referenceSeconds(reference) : TierListing.text(table, calibration: reference, info: outcome.info), terminator: "")
    }
}

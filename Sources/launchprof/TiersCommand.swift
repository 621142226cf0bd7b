import ArgumentParser
import LaunchCore
import LaunchExport
import LaunchTiers

/// `launchprof tiers`: lists the device tiers and what their factors are on this host.
struct TiersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiers",
        abstract: "List the device tiers and their factors on this host.",
        discussion: """
            Calibrated tiers give the device's time for launchprof's fixed reference workloads; this host runs the same workloads (about 50 ms) and each factor is device time ÷ host time, so a tier means the same device on a fast laptop and on a slow CI runner.

            Examples:
              launchprof tiers
              launchprof tiers --tiers my-devices.json
              # this host's reference times, for writing a tier
              launchprof tiers --calibrate
            """
    )

    @Option(name: .long, help: ArgumentHelp("A tiers file adding or overriding tiers.", valueName: "file"))
    var tiers: String?

    @Flag(name: .long, help: "Print this host's reference-workload times (seconds) as a tier's \"referenceSeconds\".")
    var calibrate = false

    func run() throws {
        let table: TierTable
        do { table = try TierTable.load(userFile: tiers) } catch { throw InputError(error) }
        let reference = try HostReference.measure()
        if calibrate {
            let fields = PhaseKind.allCases.map { "\"\($0.rawValue)\": \(SecondsFormat.format(reference.seconds[$0] ?? 0, precision: 6))" }
            print("{ \(fields.joined(separator: ", ")) }")
            return
        }
        var rows = [["tier", "cpu", "io", "decode", "draw", "memory", "description"]]
        for tier in table.tiers {
            let factors = tier.factors(host: reference)
            rows.append(
                [tier.name] + PhaseKind.allCases.map { "×" + SecondsFormat.format(factors[$0] ?? 1, precision: 1) }
                    + [tier.memoryBudget.map(MemoryFormat.mebibytes) ?? "-", tier.description])
        }
        print(TextTable.render(rows), terminator: "")
        print("")
        print("Factors on this host (\(HostInfo.current().cpuModel)): device reference time ÷ host reference time, at least 1.")
    }
}

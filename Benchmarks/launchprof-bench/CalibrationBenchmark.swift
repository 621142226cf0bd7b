import Foundation
import LaunchCore
import LaunchTiers

/// The tiers' calibration holds still: 20 `launchprof tiers` print identical factors (they use the
/// cached calibration), and 10 fresh calibrations (`tiers --calibrate`, each in 10 new processes,
/// about 3.5 s on a quiet host) differ by at most 3% per kind (io, timed by the wall clock as the
/// app's io phases are, 5%). A calibration is counted in clock cycles, in seconds at the clock of the
/// host's first calibration (here the bench's first `tiers`), which `--calibrate` keeps (docs/tiers.md,
/// "Counted in clock cycles"); the clock each calibration's processes saw is printed too. The cache is
/// a temporary `$XDG_CACHE_HOME`, so the user's is untouched.
struct CalibrationBenchmark {
    let executable = benchedLaunchprof
    var invocations = 20
    var calibrations = 10

    func report() {
        guard FileIO.exists(executable) else {
            print("calibration: \(executable) is missing (make bench builds it): skipped")
            return
        }
        let home: String
        do { home = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-bench-xdg-") } catch {
            print("calibration: no temporary directory: \(error)")
            return
        }
        defer { FileIO.removeTree(home) }
        let load = (try? FileIO.readText("/proc/loadavg", limit: 4096)).flatMap { $0.split(separator: " ").first }.map(String.init) ?? "?"
        print("calibration: load average \(load) on \(HostInfo.current().cores) cores at the start")

        // 20 invocations on one cached calibration: the factor table must not move.
        var tables = Set<String>()
        for _ in 0..<invocations {
            guard let output = run(["tiers"], home: home) else { return }
            tables.insert(output.split(separator: "\n").filter { $0.hasPrefix("iphone") || $0.hasPrefix("ipod") }.joined(separator: "\n"))
        }
        let identical = tables.count == 1
        print(
            "calibration: \(invocations) `launchprof tiers` invocations print \(tables.count) distinct factor table\(tables.count == 1 ? "" : "s") (goal 1): \(identical ? "met" : "missed")"
        )

        // 10 fresh calibrations: the spread of each kind's host reference (counted in clock cycles, in
        // seconds at the host's clock kept from its first calibration: what a run uses), and the clock
        // each calibration's own processes saw (the median), which the seconds no longer follow.
        var times: [PhaseKind: [Double]] = [:]
        var clocks: [Double] = []
        let start = MonotonicClock.nanoseconds()
        let cache = CalibrationCache(environment: ["XDG_CACHE_HOME": home])
        let fingerprint = HostFingerprint(host: HostInfo.current())
        for _ in 0..<calibrations {
            guard run(["tiers", "--calibrate"], home: home) != nil, case .found(let calibration)? = cache?.load(for: fingerprint) else { return }
            if let own = Calibration.combine(calibration.samples).clockGigahertz { clocks.append(own) }
            for kind in PhaseKind.allCases { if let s = calibration.reference.seconds[kind] { times[kind, default: []].append(s) } }
        }
        let seconds = LaunchClock.seconds(MonotonicClock.nanoseconds() - start) / Double(calibrations)
        print("calibration: \(calibrations) fresh calibrations (`tiers --calibrate`, \(format(seconds)) s each), counted in clock cycles:")
        for kind in PhaseKind.allCases {
            guard let values = times[kind], let low = values.min(), let high = values.max(), low > 0 else { continue }
            let goal = kind == .io ? 1.05 : 1.03
            let ratio = high / low
            print(
                "calibration:   \(kind.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(format(low * 1000))–\(format(high * 1000)) ms, max/min \(String(format: "%.3f", ratio)) (goal ≤ \(goal)): \(ratio <= goal ? "met" : "missed")"
            )
        }
        if let slowest = clocks.min(), let fastest = clocks.max(), slowest > 0 {
            print(
                "calibration:   the core's clock each calibration's processes saw (their median, dependent additions) \(String(format: "%.2f", slowest))–\(String(format: "%.2f", fastest)) GHz, max/min \(String(format: "%.3f", fastest / slowest)): counted in cycles, the times do not follow it"
            )
        }
    }

    /// `launchprof ARGUMENTS` with `XDG_CACHE_HOME=home`: its standard output, or `nil` (said) when it failed.
    private func run(_ arguments: [String], home: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = home
        process.environment = environment
        let pipe = Pipe(), errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        do { try process.run() } catch {
            print("calibration: cannot run \(executable): \(error)")
            return nil
        }
        // Both pipes drained at once, so neither fills while the other is read.
        nonisolated(unsafe) var stderrData = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            stderrData = errors.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            // What it said, so a failure can be told from noise (warnings about the load are left out).
            let said = String(decoding: stderrData.prefix(4096), as: UTF8.self).split(separator: "\n")
                .filter { !$0.contains("warning:") }.prefix(3).joined(separator: " | ")
            print("calibration: `launchprof \(arguments.joined(separator: " "))` exited \(process.terminationStatus): \(said)")
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation
import LaunchCore
import LaunchTiers

/// The tiers' calibration holds still: 20 `launchprof tiers` print identical factors (they use the
/// cached calibration), and 10 fresh calibrations (`tiers --calibrate`, each in 10 new processes)
/// differ by at most 3% per kind (io, timed by the wall clock as the app's io phases are, 5%); each
/// calibration's seconds are printed too (about 3.5 s on a quiet host). The cache is a temporary
/// `$XDG_CACHE_HOME`, so the user's is untouched. Each sample process also probes the core's clock
/// (``HostClock``: dependent additions), and each kind is also given in clock cycles: a spread the
/// cycles do not share is the calibration's, one they do is the host's clock moving (docs/tiers.md).
struct CalibrationBenchmark {
    let executable = ".build/release/launchprof"
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

        // 10 fresh calibrations: the spread of each kind's host reference time.
        var times: [PhaseKind: [Double]] = [:]
        var cycles: [PhaseKind: [Double]] = [:]
        var clocks: [Double] = []
        let start = MonotonicClock.nanoseconds()
        let cache = CalibrationCache(environment: ["XDG_CACHE_HOME": home])
        let fingerprint = HostFingerprint(host: HostInfo.current())
        for _ in 0..<calibrations {
            guard let output = run(["tiers", "--calibrate"], home: home), let line = output.split(separator: "\n").first,
                let value = try? JSONParser.parse(Array(line.utf8)).object
            else { return }
            for kind in PhaseKind.allCases { if let s = value[kind.rawValue]?.number { times[kind, default: []].append(s) } }
            // The same calibration in clock cycles: each process's times × its own clock, the fewest of the processes.
            guard case .found(let calibration)? = cache?.load(for: fingerprint) else { continue }
            let clocked = calibration.samples.compactMap { sample in sample.clockGigahertz.map { (sample, $0) } }
            guard clocked.count == calibration.samples.count, let fastest = clocked.map(\.1).max() else { continue }
            clocks.append(fastest)
            for kind in PhaseKind.allCases {
                if let fewest = clocked.compactMap({ sample, clock in sample.seconds[kind].map { $0 * clock * 1e9 } }).min() {
                    cycles[kind, default: []].append(fewest)
                }
            }
        }
        let seconds = LaunchClock.seconds(MonotonicClock.nanoseconds() - start) / Double(calibrations)
        print("calibration: \(calibrations) fresh calibrations (`tiers --calibrate`, \(format(seconds)) s each):")
        for kind in PhaseKind.allCases {
            guard let values = times[kind], let low = values.min(), let high = values.max(), low > 0 else { continue }
            let goal = kind == .io ? 1.05 : 1.03
            let ratio = high / low
            var line =
                "calibration:   \(kind.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(format(low * 1000))–\(format(high * 1000)) ms, max/min \(String(format: "%.3f", ratio)) (goal ≤ \(goal)): \(ratio <= goal ? "met" : "missed")"
            if let counted = cycles[kind], let fewest = counted.min(), let most = counted.max(), fewest > 0, counted.count == values.count {
                line += "; in clock cycles max/min \(String(format: "%.3f", most / fewest))"
            }
            print(line)
        }
        if let slowest = clocks.min(), let fastest = clocks.max(), slowest > 0 {
            let moved = fastest / slowest
            print(
                "calibration:   the core's clock (dependent additions, the fastest process of each calibration) \(String(format: "%.2f", slowest))–\(String(format: "%.2f", fastest)) GHz, max/min \(String(format: "%.3f", moved))\(moved > 1.03 ? ": more than the goal allows; a kind that missed by about as much in seconds but not in cycles missed by the host's clock (re-measure when the host is quiet)" : "")"
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

import Foundation
import LaunchCore
import LaunchStats
import LaunchTiers

/// This host's calibration for the calibrated tiers, the one way `tiers`, `run`, `check` and `exec`
/// get it: the per-host cache, else measured in fresh processes (this binary re-run as
/// `launchprof tiers --reference-sample`, so each sees another address layout) and cached.
/// Why it was measured is said once per invocation, on stderr.
enum HostCalibration {
    private static let memo = Memo()

    /// The calibration: cached, or measured now (`refresh`: always, replacing the cache).
    static func current(refresh: Bool = false) throws -> Calibrator.Outcome {
        if !refresh, let outcome = memo.outcome { return outcome }
        let outcome: Calibrator.Outcome
        outcome = try calibrator().calibration(refresh: refresh)
        if let note = outcome.note { StandardError.write("launchprof: \(note)\n") }
        if outcome.source == "measured", let load = loadWarning() { StandardError.warning("\(load)") }
        if outcome.source == "measured", let clock = clockWarning(outcome.calibration) { StandardError.warning(clock) }
        memo.outcome = outcome
        return outcome
    }

    /// A calibration measured on a busy machine may come out slower than the host is (the fastest
    /// try is what counts, and load makes it rarer): said when the load average is over the cores.
    static func loadWarning() -> String? {
        guard let text = try? FileIO.readText("/proc/loadavg", limit: 4096), let first = text.split(separator: " ").first,
            let load = Double(first)
        else { return nil }
        let cores = HostInfo.current().cores
        guard load > Double(cores) else { return nil }
        return
            "the load average is \(first) on \(cores) cores: this calibration may be slower than the host is; run `launchprof tiers --calibrate` again when the machine is quiet"
    }

    /// A calibration whose processes saw the core's clock more than 3% apart (the goal a fresh
    /// calibration is held to): said, since the next one may differ by as much; and how many
    /// processes' clock probes were disturbed (``HostClock``: no reading, left out of the range), or
    /// that none could read the clock.
    static func clockWarning(_ calibration: Calibration) -> String? {
        let unread = calibration.clocksUnread, processes = calibration.samples.count
        let disturbed = "its probe was disturbed (no two tries whose wall and CPU times agreed came within 1% of each other)"
        guard let range = calibration.clockRange, range.slowest > 0 else {
            guard unread > 0 else { return nil }
            return
                "the core's clock could not be read during this calibration: \(disturbed) in all \(processes) processes; the host is busy now, and a calibration made later may differ; run `launchprof tiers --calibrate` again when the machine is quiet"
        }
        guard range.fastest / range.slowest > 1.03 else { return nil }
        let moved = (range.fastest / range.slowest - 1) * 100
        let left = unread > 0 ? "; \(disturbed) in \(unread) of \(processes) processes, left out" : ""
        let figures = String(format: "moved %.1f%% during this calibration (%.2f–%.2f GHz", moved, range.slowest, range.fastest)
        return
            "the core's clock \(figures), dependent additions\(left)): the host's speed is not steady now, and a calibration made later may differ by as much; run `launchprof tiers --calibrate` again when the machine is quiet"
    }

    static func calibrator() -> Calibrator {
        Calibrator(
            cache: CalibrationCache(environment: ProcessInfo.processInfo.environment),
            fingerprint: HostFingerprint(host: HostInfo.current()),
            now: { Date().ISO8601Format() },
            sample: sampleProcess)
    }

    /// One fresh process's reference times: `launchprof tiers --reference-sample`, killed after 60 s.
    static func sampleProcess() throws(TierError) -> HostReference {
        guard let executable = SelfExecutable.path() else { throw .sampleFailed(.noExecutable) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["tiers", "--reference-sample"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw .sampleFailed(.cannotStart(executable: executable, reason: error.localizedDescription)) }
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(2000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw .sampleFailed(.timedOut(seconds: 60))
        }
        let text = output.fileHandleForReading.readDataToEndOfFile().prefix(4096)
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().prefix(2048), as: UTF8.self)
            throw .sampleFailed(.exited(status: process.terminationStatus, stderr: message.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return try HostReference(jsonLine: Array(text))
    }

    /// The calibration of a stored `baseline` measured on this host on the same calibrated tier with
    /// the same reference workloads, for a candidate on `tier` to be stretched exactly as it was;
    /// `nil` when any of that differs (or the baseline predates recorded calibrations).
    static func reusable(from baseline: LaunchResult, for tier: TierInfo?) -> (HostReference, CalibrationInfo)? {
        guard let tier, tier.calibration != nil, let stored = baseline.configuration?.tier, stored.name == tier.name,
            var info = stored.calibration, info.referenceVersion == HostReference.version,
            let seconds = stored.hostReference, PhaseKind.allCases.allSatisfy({ (seconds[$0] ?? 0) > 0 }),
            EnvironmentCheck.hostDifferences(baseline.host, HostInfo.current()).isEmpty
        else { return nil }
        info.source = "baseline"
        return (HostReference(seconds: seconds), info)
    }

    private final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Calibrator.Outcome?
        var outcome: Calibrator.Outcome? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }
}

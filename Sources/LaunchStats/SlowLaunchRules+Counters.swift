import LaunchCore

extension SlowLaunchDiagnosis {
    /// Main-thread phases shorter than this are not judged by ``SlowLaunchRule/busyMachine``: one
    /// preemption of a scheduler tick is a large share of a sliver.
    public static let busyMachineMinimumPhase = 0.001

    /// The ``SlowLaunchRule/busyMachine`` reason: a top-level launch phase on the main thread that
    /// waited for a CPU (runnable, another task running) more than 15% of its wall time, in any run.
    /// Perfetto's startup rule "main thread runnable more than 15%": the times then measure the
    /// machine's load as much as the launch.
    public static func busyMachine(_ runs: [RunRecord]) -> SlowReason? {
        let rule = SlowLaunchRule.busyMachine
        var worst: (share: Double, phase: String)?
        var busyRuns = 0
        for run in runs {
            var busy = false
            for phase in run.phases where phase.thread == 0 && phase.depth == 0 && !phase.afterLaunch && phase.duration >= busyMachineMinimumPhase {
                guard let share = phase.counters?.runnableShare(duration: phase.duration), share > rule.threshold else { continue }
                busy = true
                if share > worst?.share ?? 0 { worst = (share, phase.name) }
            }
            if busy { busyRuns += 1 }
        }
        guard let worst else { return nil }
        return rule.reason(
            worst.share,
            "the machine was busy: this run's times are not trustworthy ('\(worst.phase)' waited for a CPU \(percent(worst.share)) of its time on the main thread, over \(percent(rule.threshold)); in \(busyRuns) of \(runs.count) run\(runs.count == 1 ? "" : "s")): measure again on a quiet machine (launchprof doctor)"
        )
    }

    /// The ``SlowLaunchRule/coldFaults`` reason of a cold launch (`--cold`, runs with
    /// ``RunRecord/coldReads``): its major faults and bytes read (medians of the launch's counters),
    /// the files it read from storage (largest first) and the phases with the most major faults.
    static func coldFaults(_ runs: [RunRecord]) -> SlowReason? {
        let rule = SlowLaunchRule.coldFaults
        let cold = runs.filter { $0.coldReads != nil }
        guard !cold.isEmpty else { return nil }
        let counters = cold.compactMap(\.launchCounters)
        let faults = Summary(counters.map { Double($0.majorFaults) })?.median ?? 0
        let read = Summary(counters.compactMap { $0.bytesRead.map(Double.init) })?.median
        // Each file's median bytes over the cold runs (0 in a run that did not read it).
        var files: [String: [Double]] = [:]
        for run in cold { for file in run.coldReads ?? [] { files[file.path, default: []].append(Double(file.bytes)) } }
        var byFile: [(path: String, bytes: Double)] = []
        for (path, bytes) in files {
            let all: [Double] = bytes + [Double](repeating: 0, count: cold.count - bytes.count)
            let median: Double = Summary(all)?.median ?? 0
            if median > 0 { byFile.append((path, median)) }
        }
        byFile.sort { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.path < $1.path }
        guard faults > rule.threshold || !byFile.isEmpty else { return nil }
        var message = "a cold launch: \(Int(faults.rounded())) major page fault\(faults.rounded() == 1 ? "" : "s")"
        if let read { message += ", \(byteText(read)) read" }
        if byFile.isEmpty {
            message += "; none of its evicted files came back into the page cache"
        } else {
            let listed = byFile.prefix(5).map { "\($0.path) (\(byteText($0.bytes)))" }.joined(separator: ", ")
            message += "; read from storage: \(listed)\(byFile.count > 5 ? " and \(byFile.count - 5) more" : "")"
        }
        if let phase = mostFaults(cold) { message += "; most major faults in '\(phase.name)' (\(phase.faults))" }
        message += ": read less at launch (smaller or fewer files, lazy stages), or keep these files warm"
        return rule.reason(faults, message)
    }

    /// The top-level launch phase with the largest median major faults, when any has some.
    private static func mostFaults(_ runs: [RunRecord]) -> (name: String, faults: Int)? {
        var byName: [String: [Double]] = [:]
        for run in runs {
            for phase in run.phases where phase.depth == 0 && !phase.afterLaunch {
                if let c = phase.counters { byName[phase.name, default: []].append(Double(c.majorFaults)) }
            }
        }
        var best: (name: String, faults: Double)?
        for (name, values) in byName.sorted(by: { $0.key < $1.key }) {
            guard let median = Summary(values)?.median, median > 0, median > best?.faults ?? 0 else { continue }
            best = (name, median)
        }
        return best.map { ($0.name, Int($0.faults.rounded())) }
    }

    private static func byteText(_ bytes: Double) -> String {
        bytes < 1024
            ? "\(Int(bytes.rounded())) B" : bytes < 1_048_576 ? "\(Int((bytes / 1024).rounded())) KiB" : "\(((bytes / 1_048_576) * 10).rounded() / 10) MiB"
    }
}

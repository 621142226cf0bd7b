import LaunchCore
import LaunchStats

/// The system's share of a phase as the report prints it with `--counters` (docs/counters.md):
/// medians over the runs that recorded counters.
///
/// ```
/// [cpu 12.8 ms, waiting 0.3 ms, blocked 1.1 ms; faults 224 minor, 0 major; switches 0/3; read 1.0 KiB, wrote 0 B]
/// ```
public enum CountersFormat {
    /// The bracketed text for a row's counters, or `nil` when none were recorded.
    public static func text(_ row: PhaseTable.Row, digits: Int) -> String? {
        guard !row.counters.isEmpty else { return nil }
        return text(row.counters, blocked: row.blockedTimes, digits: digits)
    }

    /// The bracketed text for counters of several runs and the blocked seconds of the same runs
    /// (left out when empty: a process's counters have no wall time of their own to split).
    public static func text(_ runs: [PhaseCounters], blocked: [Double], digits: Int) -> String? {
        func median(_ values: [Double]) -> Double? { Summary(values)?.median }
        func count(_ values: [Int]) -> String { median(values.map(Double.init)).map { "\(Int($0.rounded()))" } ?? "n/a" }
        guard let cpu = median(runs.map(\.cpuTime)) else { return nil }
        var times = ["cpu \(DurationFormat.format(cpu, digits: digits))"]
        let runnable = runs.compactMap(\.runnableTime)
        if runnable.count == runs.count, let waiting = median(runnable) { times.append("waiting \(DurationFormat.format(waiting, digits: digits))") }
        if let blocked = median(blocked) { times.append("blocked \(DurationFormat.format(blocked, digits: digits))") }
        var parts = [
            times.joined(separator: ", "),
            "faults \(count(runs.map(\.minorFaults))) minor, \(count(runs.map(\.majorFaults))) major",
            "switches \(count(runs.map(\.voluntarySwitches))) voluntary, \(count(runs.map(\.involuntarySwitches))) involuntary"
        ]
        let read = runs.compactMap(\.bytesRead), written = runs.compactMap(\.bytesWritten)
        if read.count == runs.count, written.count == runs.count, let r = median(read.map(Double.init)), let w = median(written.map(Double.init)) {
            parts.append("read \(bytes(r)), wrote \(bytes(w))")
        }
        return "[" + parts.joined(separator: "; ") + "]"
    }

    /// A byte count in the unit that fits: `512 B`, `40.0 KiB`, `1.2 MiB`.
    public static func bytes(_ value: Double) -> String {
        if value < 1024 { return "\(Int(value.rounded())) B" }
        if value < 1_048_576 { return SecondsFormat.format(value / 1024, precision: 1) + " KiB" }
        return MemoryFormat.mebibytes(value)
    }
}

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
        guard let medians = Medians(runs, blocked: blocked, digits: digits) else { return nil }
        var times = ["cpu \(medians.cpu)"]
        if let waiting = medians.waiting { times.append("waiting \(waiting)") }
        if let blocked = medians.blocked { times.append("blocked \(blocked)") }
        var parts = [
            times.joined(separator: ", "),
            "faults \(medians.minorFaults) minor, \(medians.majorFaults) major",
            "switches \(medians.voluntarySwitches) voluntary, \(medians.involuntarySwitches) involuntary"
        ]
        if let read = medians.read, let written = medians.written { parts.append("read \(read), wrote \(written)") }
        return "[" + parts.joined(separator: "; ") + "]"
    }

    /// Each counter's median over the runs, formatted: times in the unit that fits, counts whole,
    /// bytes in B, KiB or MiB; `nil` for a counter not read in every run (waiting, bytes) or not
    /// given (blocked).
    public struct Medians: Equatable, Sendable {
        public var cpu: String
        public var waiting: String?
        public var blocked: String?
        public var minorFaults: String
        public var majorFaults: String
        public var voluntarySwitches: String
        public var involuntarySwitches: String
        public var read: String?
        public var written: String?

        /// `nil` when `runs` is empty.
        public init?(_ runs: [PhaseCounters], blocked: [Double], digits: Int) {
            func median(_ values: [Double]) -> Double? { Summary(values)?.median }
            func count(_ values: [Int]) -> String { median(values.map(Double.init)).map { "\(Int($0.rounded()))" } ?? "n/a" }
            guard let cpu = median(runs.map(\.cpuTime)) else { return nil }
            self.cpu = DurationFormat.format(cpu, digits: digits)
            let runnable = runs.compactMap(\.runnableTime)
            waiting = runnable.count == runs.count ? median(runnable).map { DurationFormat.format($0, digits: digits) } : nil
            self.blocked = median(blocked).map { DurationFormat.format($0, digits: digits) }
            minorFaults = count(runs.map(\.minorFaults))
            majorFaults = count(runs.map(\.majorFaults))
            voluntarySwitches = count(runs.map(\.voluntarySwitches))
            involuntarySwitches = count(runs.map(\.involuntarySwitches))
            let read = runs.compactMap(\.bytesRead), written = runs.compactMap(\.bytesWritten)
            if read.count == runs.count, written.count == runs.count, let r = median(read.map(Double.init)), let w = median(written.map(Double.init)) {
                self.read = CountersFormat.bytes(r)
                self.written = CountersFormat.bytes(w)
            }
        }
    }

    /// A byte count in the unit that fits: `512 B`, `40.0 KiB`, `1.2 MiB`.
    public static func bytes(_ value: Double) -> String {
        if value < 1024 { return "\(Int(value.rounded())) B" }
        if value < 1_048_576 { return SecondsFormat.format(value / 1024, precision: 1) + " KiB" }
        return MemoryFormat.mebibytes(value)
    }
}

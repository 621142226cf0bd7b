import LaunchCore
import LaunchStats

/// One CSV row per run and phase: `run,phase,parent,thread,start,duration,rss` (seconds; rss in bytes,
/// empty when not sampled), for spreadsheets; then one per mark, as a span from the spawn
/// (`Time to first frame`, start 0, duration the mark's time). A result with instruction counts (`--metric
/// instructions`) has one more column, `instructions` (empty for a phase without a count, never 0).
/// A result with system counters (docs/counters.md) has nine more: `cpu,runnable,blocked` (seconds),
/// `minor_faults,major_faults,voluntary_switches,involuntary_switches,bytes_read,bytes_written`
/// (empty where not recorded, never 0). Fields are quoted when they need it (RFC 4180).
public struct CSVExporter: ResultExporter {

    public init() {}

    public func render(_ result: LaunchResult) -> String {
        let counted = result.runs.contains { run in run.phases.contains { $0.instructions != nil } }
        let withCounters = result.runs.contains { run in run.phases.contains { $0.counters != nil } }
        var lines = [
            "run,phase,parent,thread,start,duration,rss" + (counted ? ",instructions" : "")
                + (withCounters ? "," + Self.counterColumns.joined(separator: ",") : "")
        ]
        for run in result.runs {
            for phase in run.phases {
                let parent = phase.parent.flatMap { $0 >= 0 && $0 < run.phases.count ? run.phases[$0].name : nil } ?? ""
                var fields = [
                    String(run.index), Self.quote(phase.name), Self.quote(parent), String(phase.thread),
                    SecondsFormat.format(phase.start, precision: 6), SecondsFormat.format(phase.duration, precision: 6),
                    phase.residentBytes.map(String.init) ?? ""
                ]
                if counted { fields.append(phase.instructions.map(String.init) ?? "") }
                if withCounters { fields += Self.counterFields(phase.counters, duration: phase.duration) }
                lines.append(fields.joined(separator: ","))
            }
            // Marks as spans from the spawn: `Time to first frame`, start 0, duration the mark's time.
            for mark in run.marks {
                var fields = [
                    String(run.index), Self.quote(PhaseTable.markRowName(mark.name)), "", String(mark.thread),
                    "0", SecondsFormat.format(mark.time, precision: 6), ""
                ]
                if counted { fields.append("") }
                if withCounters { fields += Self.counterFields(nil, duration: 0) }
                lines.append(fields.joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let counterColumns = [
        "cpu", "runnable", "blocked", "minor_faults", "major_faults", "voluntary_switches", "involuntary_switches", "bytes_read", "bytes_written"
    ]

    /// A phase's counter columns, all empty without counters.
    static func counterFields(_ c: PhaseCounters?, duration: Double) -> [String] {
        guard let c else { return Array(repeating: "", count: counterColumns.count) }
        func seconds(_ value: Double?) -> String { value.map { SecondsFormat.format($0, precision: 6) } ?? "" }
        return [
            seconds(c.cpuTime), seconds(c.runnableTime), seconds(c.blocked(duration: duration)), String(c.minorFaults), String(c.majorFaults),
            String(c.voluntarySwitches), String(c.involuntarySwitches), c.bytesRead.map(String.init) ?? "", c.bytesWritten.map(String.init) ?? ""
        ]
    }

    /// `text`, quoted when it holds a comma, a quote or a line break (quotes doubled), per RFC 4180.
    /// Checked scalar by scalar: a CR LF pair is one Swift character equal to neither CR nor LF.
    static func quote(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return ScalarEscaping.escape(text, prefix: "\"", suffix: "\"") { $0 == "\"" ? "\"\"" : nil }
    }
}

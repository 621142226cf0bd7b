import LaunchCore

/// The Chrome Trace Event format (JSON object form), which ui.perfetto.dev and chrome://tracing open.
///
/// Each run is its own process track (`pid` = run number, named with its real pid); each phase is a
/// complete event (`"ph": "X"`, `ts` and `dur` in microseconds) on its thread; marks are instant
/// events; resident memory is a counter track; tier and host are in the metadata. A result measured
/// in instructions (`--metric instructions`) puts each phase's count in its event's args
/// (`"instructions"`) and the instructions executed so far (top-level launch phases, summed) on an
/// `instructions` counter track; a phase without a count gets neither (never a 0). A phase with system
/// counters (docs/counters.md) has them in its args: `cpu_ms`, `runnable_ms`, `blocked_ms`,
/// `minor_faults`, `major_faults`, `voluntary_switches`, `involuntary_switches`, `bytes_read`, `bytes_written`.
/// A result with samples (`--sample`) adds its sampled run's samples as slices on tracks of their own (``sampleEvents(_:run:)``).
public struct ChromeTraceExporter: ResultExporter {
    /// Only this run (1-based), or every run when `nil`.
    public var run: Int?

    public init(run: Int? = nil) {
        self.run = run
    }

    public func render(_ result: LaunchResult) throws(ExportError) -> String {
        var events: [String] = []
        if let number = self.run { _ = try selectRun(result, number) }  // An absent run is an error, not an empty trace.
        for run in result.runs where self.run == nil || run.index == self.run {
            let pid = run.index
            var instructionsSoFar = 0
            let label = "run \(run.index)" + (run.pid.map { " (pid \($0))" } ?? "")
            events.append(#"{"name":"process_name","ph":"M","pid":\#(pid),"tid":0,"args":{"name":\#(json(label))}}"#)
            events.append(#"{"name":"process_sort_index","ph":"M","pid":\#(pid),"tid":0,"args":{"sort_index":\#(pid)}}"#)
            for thread in Set(run.phases.map(\.thread) + run.marks.map(\.thread)).sorted() {
                events.append(
                    #"{"name":"thread_name","ph":"M","pid":\#(pid),"tid":\#(thread),"args":{"name":\#(json(thread == 0 ? "main" : "thread \(thread)"))}}"#)
            }
            for phase in run.phases {
                var args: [String] = []
                if let kind = phase.kind { args.append(#""kind":\#(json(kind.rawValue))"#) }
                if let host = phase.hostDuration { args.append(#""host_ms":\#(number(host * 1000))"#) }
                if let rss = phase.residentBytes { args.append(#""rss_bytes":\#(rss)"#) }
                if phase.afterLaunch { args.append(#""after_launch":true"#) }
                if let count = phase.instructions { args.append(#""instructions":\#(count)"#) }
                if let counters = phase.counters { args += counterArgs(counters, duration: phase.duration) }
                events.append(
                    #"{"name":\#(json(phase.name)),"cat":\#(json(phase.kind?.rawValue ?? "phase")),"ph":"X","ts":\#(micro(phase.start)),"dur":\#(micro(phase.duration)),"pid":\#(pid),"tid":\#(phase.thread),"args":{\#(args.joined(separator: ","))}}"#
                )
                if let rss = phase.residentBytes {
                    events.append(
                        #"{"name":"resident memory","ph":"C","ts":\#(micro(phase.end)),"pid":\#(pid),"tid":0,"args":{"MiB":\#(number(Double(rss) / 1_048_576))}}"#
                    )
                }
                if let count = phase.instructions, phase.depth == 0, !phase.afterLaunch {
                    let (sum, overflow) = instructionsSoFar.addingReportingOverflow(count)
                    instructionsSoFar = overflow ? Int.max : sum
                    events.append(
                        #"{"name":"instructions","ph":"C","ts":\#(micro(phase.end)),"pid":\#(pid),"tid":0,"args":{"instructions":\#(instructionsSoFar)}}"#)
                }
            }
            for mark in run.marks {
                events.append(#"{"name":\#(json(mark.name)),"ph":"i","s":"t","ts":\#(micro(mark.time)),"pid":\#(pid),"tid":\#(mark.thread)}"#)
            }
            events += sampleEvents(result, run: run)
        }
        var metadata = [
            #""tool":\#(json("\(result.tool.name) \(result.tool.version)"))"#,
            #""manifest":\#(json(result.manifest.name))"#,
            #""host":\#(json("\(result.host.cpuModel), \(result.host.cores) cores, \(result.host.os)"))"#,
            #""date":\#(json(result.date))"#
        ]
        if let tier = result.configuration?.tier { metadata.append(#""tier":\#(json(tier.name))"#) }
        if let mode = result.configuration?.mode { metadata.append(#""mode":\#(json(mode.rawValue))"#) }
        return "{\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n],\"displayTimeUnit\":\"ms\",\"metadata\":{"
            + metadata.joined(separator: ",") + "}}\n"
    }

    /// A phase's system counters as event args (milliseconds, counts, bytes); those not read left out.
    func counterArgs(_ c: PhaseCounters, duration: Double) -> [String] {
        var args = [#""cpu_ms":\#(number(c.cpuTime * 1000))"#]
        if let runnable = c.runnableTime { args.append(#""runnable_ms":\#(number(runnable * 1000))"#) }
        args += [
            #""blocked_ms":\#(number(c.blocked(duration: duration) * 1000))"#, #""minor_faults":\#(c.minorFaults)"#,
            #""major_faults":\#(c.majorFaults)"#, #""voluntary_switches":\#(c.voluntarySwitches)"#,
            #""involuntary_switches":\#(c.involuntarySwitches)"#
        ]
        if let read = c.bytesRead { args.append(#""bytes_read":\#(read)"#) }
        if let written = c.bytesWritten { args.append(#""bytes_written":\#(written)"#) }
        return args
    }

    /// Seconds as microseconds with nanosecond precision.
    func micro(_ seconds: Double) -> String { number(seconds * 1e6) }

    /// A JSON number; `0` for a value that is not finite (JSON has no `nan` or `inf`; a result read
    /// from a file never holds one, only a result built in memory could).
    func number(_ value: Double) -> String { value.isFinite ? SecondsFormat.format(value, precision: 3) : "0" }

    /// A JSON string literal.
    func json(_ text: String) -> String { JSONText.quoted(text) }
}

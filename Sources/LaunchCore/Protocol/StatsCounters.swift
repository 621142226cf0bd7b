/// The system counters of a `stats` line (docs/protocol.md, `cpu=`, `runnable=`, `minflt=`, `majflt=`,
/// `vcsw=`, `ivcsw=`, `rchar=`, `wchar=`), collected key by key into a ``PhaseCounters``.
struct StatsCounters {
    private var values: [String: Int] = [:]

    /// The keys this type reads; times in nanoseconds, the rest counts and bytes.
    static let keys: Set<String> = ["cpu", "runnable", "minflt", "majflt", "vcsw", "ivcsw", "rchar", "wchar"]
    /// The keys a line with counters must carry: what `getrusage` and the CPU clock always give.
    static let required = ["cpu", "minflt", "majflt", "vcsw", "ivcsw"]

    /// Takes `value` when `key` is a counter's; `false` for any other key.
    mutating func accept(_ key: String, _ value: Int) -> Bool {
        guard Self.keys.contains(key) else { return false }
        values[key] = value
        return true
    }

    /// Whether any counter key was read.
    var seen: Bool { !values.isEmpty }

    /// The counters, or `nil` when a required key is missing.
    var counters: PhaseCounters? {
        guard Self.required.allSatisfy({ values[$0] != nil }) else { return nil }
        return PhaseCounters(
            cpuTime: Double(values["cpu"]!) / 1e9, runnableTime: values["runnable"].map { Double($0) / 1e9 },
            minorFaults: values["minflt"]!, majorFaults: values["majflt"]!,
            voluntarySwitches: values["vcsw"]!, involuntarySwitches: values["ivcsw"]!,
            bytesRead: values["rchar"], bytesWritten: values["wchar"])
    }
}

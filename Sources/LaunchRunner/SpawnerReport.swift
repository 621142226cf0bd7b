import LaunchCore

/// What `launchprof-spawn` (the small process each program of `launchprof exec` is spawned through)
/// reports on its descriptor: its clock readings around the program and the program's `wait4`.
/// See Sources/launchprof-spawn/spawn.c.
struct SpawnerReport {
    /// `spawn <ns> <realtime ns>`: the reading just before the program's spawn, the run's origin.
    private(set) var spawnReading: UInt64?
    /// The wall clock (`CLOCK_REALTIME`, seconds since 1970) read with it.
    private(set) var spawnRealtime: Double?
    /// `exit …`: the program's end.
    private(set) var exit: Exit?
    /// `error <errno>`: the spawn failed.
    private(set) var spawnError: Int32?

    struct Exit {
        var reading: UInt64
        /// The raw `wait` status.
        var status: Int32
        var userMicroseconds: Int64
        var systemMicroseconds: Int64
        var peakKibibytes: Int64
        /// `… <minflt> <majflt> <nvcsw> <nivcsw> <rchar> <wchar>` after the peak: the whole process's
        /// counters (rchar and wchar -1 when /proc/<pid>/io could not be read); `nil` without them.
        var counters: PhaseCounters?
    }

    private var pending: [UInt8] = []

    /// The process's counters from the `exit` line's last six words, `nil` when one does not parse.
    static func counters(_ words: ArraySlice<Substring>, user: Int64, system: Int64) -> PhaseCounters? {
        let values = words.compactMap { Int($0) }
        guard values.count == 6, values[0..<4].allSatisfy({ $0 >= 0 }) else { return nil }
        return PhaseCounters(
            cpuTime: Double(user + system) / 1e6, minorFaults: values[0], majorFaults: values[1],
            voluntarySwitches: values[2], involuntarySwitches: values[3],
            bytesRead: values[4] >= 0 ? values[4] : nil, bytesWritten: values[5] >= 0 ? values[5] : nil)
    }

    /// Takes bytes read from the descriptor; complete lines are parsed, anything malformed ignored
    /// (the spawner is launchprof's own; a line that does not parse only loses its numbers).
    mutating func consume(_ bytes: ArraySlice<UInt8>) {
        pending += bytes
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let words = String(decoding: pending[..<newline], as: UTF8.self).split(separator: " ")
            pending.removeSubrange(...newline)
            switch words.first {
            case "spawn" where words.count == 2 || words.count == 3:
                spawnReading = UInt64(words[1])
                if words.count == 3, let wall = UInt64(words[2]) { spawnRealtime = Double(wall) / 1e9 }
            case "exit" where words.count == 6 || words.count == 12:
                if let reading = UInt64(words[1]), let status = Int32(words[2]), let user = Int64(words[3]),
                    let system = Int64(words[4]), let peak = Int64(words[5]), user >= 0, system >= 0, peak >= 0
                {
                    exit = Exit(reading: reading, status: status, userMicroseconds: user, systemMicroseconds: system, peakKibibytes: peak)
                    if words.count == 12 { exit?.counters = Self.counters(words[6...], user: user, system: system) }
                }
            case "error" where words.count == 2:
                spawnError = Int32(words[1])
            default:
                break
            }
        }
        if pending.count > 4096 { pending.removeAll() }
    }
}

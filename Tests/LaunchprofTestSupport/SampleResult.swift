import LaunchCore

/// A fixed result: the classic calculator launch, with one nested phase, a deferred and a touched lazy stage.
public enum SampleResult {
    public static let host = HostInfo(
        cpuModel: "Test CPU", cores: 2, os: "Linux 6.1", architecture: "x86_64",
        swiftVersion: "6.3", hostname: "ci")

    public static func classic(runs: Int = 1) -> LaunchResult {
        let runRecords = (0..<runs).map { i -> RunRecord in
            let jitter = Double(i) * 0.01
            return RunRecord(
                index: i + 1, pid: 100 + i, total: 3.68 + jitter,
                phases: [
                    PhaseRecord(name: "Init", kind: .cpu, start: 0, duration: 0.89 + jitter),
                    PhaseRecord(name: "building layouts", kind: .cpu, start: 0.89, duration: 0.91),
                    PhaseRecord(name: "portrait", kind: .cpu, start: 0.90, duration: 0.5, depth: 1, parent: 1),
                    PhaseRecord(name: "loading themes", kind: .io, start: 1.80, duration: 0.45),
                    PhaseRecord(name: "drawing", kind: .draw, start: 2.25, duration: 1.43),
                    PhaseRecord(name: "loading conversions", kind: .cpu, start: 4.0, duration: 0.123, afterLaunch: true)
                ], marks: [MarkRecord(name: "first frame", time: 3.68)],
                counters: [CounterRecord(name: "keys laid out", value: 19), CounterRecord(name: "pixels drawn", value: 1_234_567)],
                deferred: ["loading conversions", "loading constants"])
        }
        return LaunchResult(
            date: "2026-11-22T07:00:00Z",
            manifest: ManifestInfo(name: "default", path: "Fixtures/default/manifest.json", sha256: "abc"),
            host: host, git: GitInfo(commit: "0123abcd", branch: "main", dirty: false), runs: runRecords)
    }
}

extension SampleResult {
    /// The classic launch measured in instructions (`--metric instructions`): every phase counted.
    public static func instructions(runs: Int = 2, drift: Int = 7) -> LaunchResult {
        var result = classic(runs: runs)
        let counts = [890_000_000, 910_000_000, 500_000_000, 45_000, 1_430_000_000, 123_000]
        for r in result.runs.indices {
            for p in result.runs[r].phases.indices { result.runs[r].phases[p].instructions = counts[p] + r * drift }
            result.runs[r].instructions = 3_275_045_000 + r * drift
        }
        result.configuration = RunConfiguration(runs: runs, warmup: 0, mode: .warm, timeout: 60, metric: .instructions)
        return result
    }

    /// The classic launch with instruction counts and a host duration: every column a reader fills.
    public static func counted(runs: Int) -> LaunchResult {
        var result = classic(runs: runs)
        for r in result.runs.indices {
            result.runs[r].instructions = 1_000_000 + r
            for p in result.runs[r].phases.indices { result.runs[r].phases[p].instructions = 1000 * (p + 1) + r }
            result.runs[r].phases[1].hostDuration = 0.5
        }
        return result
    }
}

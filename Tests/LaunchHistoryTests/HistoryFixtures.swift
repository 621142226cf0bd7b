import LaunchCore

/// Results made up for the store tests: `phases` phases × `runs` runs, values that depend on the
/// commit and the run (so a mix-up between results or runs shows).
enum HistoryFixtures {
    static let host = HostInfo(cpuModel: "Test CPU", cores: 2, os: "Linux 6.1", architecture: "x86_64", swiftVersion: "6.3", hostname: "ci")
    static let otherHost = HostInfo(cpuModel: "Other CPU", cores: 8, os: "Linux 6.1", architecture: "x86_64", swiftVersion: "6.3", hostname: "ci2")

    /// A 40-hex-digit commit hash for `n`.
    static func commit(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return String(repeating: "c", count: 40 - hex.count) + hex
    }

    static func duration(commit n: Int, phase p: Int, run r: Int) -> Double {
        0.001 * Double(p + 1) + 0.0001 * Double(n % 97) + 0.000_001 * Double(r)
    }

    static func result(
        commit n: Int, phases: Int = 5, runs: Int = 3, dirty: Bool = false, host: HostInfo = host, manifest: String = "default",
        tier: String? = nil, date: String? = nil
    ) -> LaunchResult {
        let records = (0..<runs).map { r -> RunRecord in
            var start = 0.0
            let phaseRecords = (0..<phases).map { p -> PhaseRecord in
                let d = duration(commit: n, phase: p, run: r)
                defer { start += d }
                return PhaseRecord(name: "phase \(p)", kind: .cpu, start: start, duration: d)
            }
            var run = RunRecord(index: r + 1, total: start, phases: phaseRecords, marks: [MarkRecord(name: "first frame", time: start)])
            run.peakResidentBytes = 10_000_000 + n * 1000 + r
            return run
        }
        let tierInfo = tier.map { TierInfo(name: $0, factors: [:], memoryBudget: nil, hostReference: nil) }
        return LaunchResult(
            date: date ?? "2026-11-\(String(format2: 1 + n % 28))T07:00:00Z", manifest: ManifestInfo(name: manifest, path: "m.json", sha256: "abc"), host: host,
            git: GitInfo(commit: commit(n), branch: "main", dirty: dirty),
            configuration: RunConfiguration(runs: runs, warmup: 0, mode: .warm, timeout: 60, tier: tierInfo), runs: records)
    }
}

extension String {
    /// `n` with at least two digits.
    init(format2 n: Int) { self = n < 10 ? "0\(n)" : "\(n)" }
}

import LaunchCore

/// What a calibration belongs to: the host that measured it and the reference workloads it timed.
/// A calibration is only ever used where all of these are the same (docs/tiers.md, "The calibration cache").
public struct HostFingerprint: Equatable, Sendable {
    public var cpuModel: String
    public var cores: Int
    /// The kernel: `uname`'s system name and release (``HostInfo/os``).
    public var kernel: String
    public var architecture: String
    /// ``HostReference/version``.
    public var referenceVersion: Int
    /// How the reference workloads were compiled (``ToolInfo/buildConfiguration``): a debug build's C
    /// is unoptimised and takes several times longer, so its calibration is not a release build's.
    public var build: String

    public init(
        cpuModel: String, cores: Int, kernel: String, architecture: String, referenceVersion: Int = HostReference.version,
        build: String = ToolInfo.buildConfiguration
    ) {
        self.cpuModel = cpuModel
        self.cores = cores
        self.kernel = kernel
        self.architecture = architecture
        self.referenceVersion = referenceVersion
        self.build = build
    }

    /// The fingerprint of `host` with this build's reference workloads.
    public init(host: HostInfo, referenceVersion: Int = HostReference.version) {
        self.init(cpuModel: host.cpuModel, cores: host.cores, kernel: host.os, architecture: host.architecture, referenceVersion: referenceVersion)
    }

    /// 16 hex digits of the SHA-256 of every field (with the build): the cache file's name and the result's `calibration.host`.
    public var key: String {
        let text = [cpuModel, String(cores), kernel, architecture, String(referenceVersion), build].joined(separator: "\u{0}")
        return String(SHA256.hex(of: SHA256.digest(Array(text.utf8))).prefix(16))
    }

    /// What differs from `other`, each as `what: this vs other` (empty when they are the same).
    public func differences(from other: HostFingerprint) -> [String] {
        var out: [String] = []
        if cpuModel != other.cpuModel { out.append("CPU model: \(cpuModel) vs \(other.cpuModel)") }
        if cores != other.cores { out.append("cores: \(cores) vs \(other.cores)") }
        if kernel != other.kernel { out.append("kernel: \(kernel) vs \(other.kernel)") }
        if architecture != other.architecture { out.append("architecture: \(architecture) vs \(other.architecture)") }
        if referenceVersion != other.referenceVersion { out.append("reference workloads: version \(referenceVersion) vs \(other.referenceVersion)") }
        if build != other.build { out.append("build: \(build) vs \(other.build)") }
        return out
    }
}

/// This host's reference times as a tier uses them: measured in several fresh processes and
/// combined (``combine(_:)``), with when and where that was done.
public struct Calibration: Equatable, Sendable {
    /// The combined reference times.
    public var reference: HostReference
    public var fingerprint: HostFingerprint
    /// When it was measured (ISO 8601, UTC).
    public var made: String
    /// Each process's fastest times, in the order measured.
    public var samples: [HostReference]

    public init(reference: HostReference, fingerprint: HostFingerprint, made: String, samples: [HostReference]) {
        self.reference = reference
        self.fingerprint = fingerprint
        self.made = made
        self.samples = samples
    }

    /// Fresh processes a calibration is measured in by default (about 0.15 s each on a release build).
    public static let defaultProcesses = 10
    /// Tries of each workload in one process (at least; more of a short one, up to
    /// ``triesSeconds``); the fastest is that process's time.
    public static let repetitions = 9
    /// Seconds of tries of each workload in one process: a 1 ms workload is tried about 40 times.
    public static let triesSeconds = 0.04

    /// Measures `processes` samples (each in a fresh process: `sample` starts one and returns its
    /// ``HostReference/measure(repetitions:)``) and combines them.
    public static func measure(
        processes: Int = defaultProcesses, fingerprint: HostFingerprint, made: String, atClock anchor: Double? = nil,
        sample: () throws(TierError) -> HostReference
    ) throws(TierError) -> Calibration {
        var samples: [HostReference] = []
        for _ in 0..<max(1, processes) { samples.append(try sample()) }
        return Calibration(reference: combine(samples, atClock: anchor), fingerprint: fingerprint, made: made, samples: samples)
    }

    /// ``combine(_:atClock:)`` in a few words, as the cache file states it.
    static let statistic = "fewest clock cycles of the per-process minima, in seconds at the host's first calibration's clock"

    /// The statistic (docs/tiers.md, "Calibration across processes" and "Counted in clock cycles"):
    /// per kind, the fewest clock cycles of the per-process minima (each process's fastest try times
    /// the core's clock it read, ``HostReference/cycles(_:)``), in seconds at `anchor` (the clock of
    /// this host's first calibration, which a calibration measured again keeps) or, for a first
    /// calibration, at the median of its processes' clocks; the combined reference records that clock.
    /// Everything that disturbs a try only adds time: other work (which the CPU-time clock of
    /// ``HostReference/time(_:runDelay:_:)`` mostly leaves out already), and the address layout a
    /// process happens to get. Each process is one draw of the layout; a median or a quartile of the
    /// processes lands in whichever layout most of them drew and moves between calibrations, the fewest
    /// repeats. Counted in cycles it also holds still while the host's clock moves from minute to minute
    /// (a try's seconds move with the clock). Without a clock in any process: the fastest of the
    /// per-process minima, in seconds, with no clock.
    public static func combine(_ samples: [HostReference], atClock anchor: Double? = nil) -> HostReference {
        let clocked = samples.filter { $0.clockGigahertz != nil }
        guard let clock = anchor.flatMap({ $0 > 0 ? $0 : nil }) ?? median(clocked.compactMap(\.clockGigahertz)), !clocked.isEmpty else {
            return fastest(samples)
        }
        var seconds: [PhaseKind: Double] = [:]
        for kind in PhaseKind.allCases {
            if let fewest = clocked.compactMap({ $0.cycles(kind) }).filter({ $0.isFinite && $0 > 0 }).min() { seconds[kind] = fewest / (clock * 1e9) }
        }
        return HostReference(seconds: seconds, clockGigahertz: clock)
    }

    /// Per kind, the fastest of the per-process minima, in seconds.
    static func fastest(_ samples: [HostReference]) -> HostReference {
        var seconds: [PhaseKind: Double] = [:]
        for kind in PhaseKind.allCases {
            if let fastest = samples.compactMap({ $0.seconds[kind] }).filter({ $0.isFinite && $0 > 0 }).min() { seconds[kind] = fastest }
        }
        return HostReference(seconds: seconds)
    }

    /// The median of `values` (the mean of the middle two of an even count); `nil` when empty.
    static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The slowest and fastest core clock its processes saw (GHz, ``HostClock``), of those that read
    /// one (a process whose probe was disturbed throughout, or a cache file older than the clock, has
    /// none); `nil` when none did. A calibration whose processes saw clocks far apart was made while
    /// the host's clock moved, and the next may differ from it by as much (docs/tiers.md, "What still
    /// moves a calibration").
    public var clockRange: (slowest: Double, fastest: Double)? {
        let clocks = samples.compactMap(\.clockGigahertz)
        guard let slowest = clocks.min(), let fastest = clocks.max() else { return nil }
        return (slowest, fastest)
    }

    /// How many of its processes read no clock.
    public var clocksUnread: Int { samples.count - samples.compactMap(\.clockGigahertz).count }

    /// What a result records of it: `source` says how the run got it (`cache`, `measured`, `baseline`).
    public func info(source: String) -> CalibrationInfo {
        CalibrationInfo(
            made: made, referenceVersion: fingerprint.referenceVersion, processes: samples.count, source: source, host: fingerprint.key,
            clockGigahertz: reference.clockGigahertz)
    }
}

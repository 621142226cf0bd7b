/// The result document: what was launched, where, and every phase of every run.
///
/// Stored as JSON (see `docs/result.schema.json`). ``schemaVersion`` changes whenever a field
/// changes meaning; readers refuse versions they do not know.
public struct LaunchResult: Codable, Equatable, Sendable {
    /// The schema version this build writes.
    public static let currentSchemaVersion = 6
    /// Every schema version this build reads (version 1 has no instruction counts; before version 4
    /// no result has a ``command`` or runs with a ``RunRecord/process``; before version 5 none has
    /// ``functions``; before version 6 none has ``stacks`` or ``samples``, nor a phase or process ``PhaseRecord/counters``).
    public static let readableSchemaVersions: ClosedRange<Int> = 1...6

    public var schemaVersion: Int
    public var tool: ToolInfo
    /// ISO 8601 date and time the result was made.
    public var date: String
    public var manifest: ManifestInfo
    /// The program launched by `launchprof exec`; `nil` for the built-in app (``manifest`` says what it launched).
    public var command: CommandInfo?
    public var host: HostInfo
    /// The git state of the working directory, when it is a git work tree.
    public var git: GitInfo?
    /// How the runs were made: counts, cold or warm, timeout, device tier. `nil` for a single in-process run.
    public var configuration: RunConfiguration?
    public var runs: [RunRecord]
    /// Findings worth a person's attention: outlier first runs, memory over a tier's budget.
    public var warnings: [String]
    /// Why the launch is slow: the rules that fired on these runs (`Why it is slow`), when the runs
    /// were timed; `nil` when no diagnosis was made (results before it, instruction counts).
    public var slowReasons: [SlowReason]?
    /// Each phase's function profile (`--functions`, docs/functions.md); `nil` when none was made.
    public var functions: FunctionProfiles?
    /// Each phase's call stacks for flame graphs (docs/flame-graphs.md), in the unit of the result's one
    /// function profile: instructions (``functions``, `--functions`) or samples (``samples``, `--sample`).
    /// The two options exclude each other (one counts under Valgrind, the other times the launch at
    /// full speed), so a result has at most one profile, and the stacks are that one's: their `unit`
    /// (``InstructionUnit/name`` or ``SampleUnit/name``) says whose. `nil` when none were made.
    public var stacks: ResultStacks?
    /// Each phase's wall-clock samples (`--sample`, docs/sampling.md); `nil` when none were taken.
    public var samples: SampleProfiles?

    public init(
        schemaVersion: Int = LaunchResult.currentSchemaVersion, tool: ToolInfo = .current, date: String,
        manifest: ManifestInfo, host: HostInfo, git: GitInfo? = nil, configuration: RunConfiguration? = nil,
        runs: [RunRecord], warnings: [String] = []
    ) {
        self.schemaVersion = schemaVersion
        self.tool = tool
        self.date = date
        self.manifest = manifest
        self.host = host
        self.git = git
        self.configuration = configuration
        self.runs = runs
        self.warnings = warnings
    }
}

/// How a result's runs were made.
public struct RunConfiguration: Codable, Equatable, Sendable {
    /// Measured runs (warm-up runs are not kept).
    public var runs: Int
    public var warmup: Int
    /// `cold`: the manifest's files were evicted from the page cache before each run; else `warm`.
    public var mode: RunMode
    /// Seconds a run could take before it was killed.
    public var timeout: Double
    public var tier: TierInfo?
    /// What the runs measured: `time` (always) or also `instructions` (under Callgrind). `nil` in
    /// schema version 1 results, which measured time only.
    public var metric: Metric?

    public init(runs: Int, warmup: Int, mode: RunMode, timeout: Double, tier: TierInfo? = nil, metric: Metric? = nil) {
        self.runs = runs
        self.warmup = warmup
        self.mode = mode
        self.timeout = timeout
        self.tier = tier
        self.metric = metric
    }
}

/// The emulated device of a result.
///
/// In JSON, ``factors`` and ``hostReference`` are objects keyed by the kind's name (`"cpu"`, `"io"`,
/// `"decode"`, `"draw"`), exactly as when they were string-keyed; a key naming no kind, from another
/// tool or a hand-edited file, is ignored on reading (the schema allows any key, and no reader uses it).
public struct TierInfo: Codable, Equatable, Sendable {
    public var name: String
    /// The factor applied to each kind of cost on this host.
    public var factors: [PhaseKind: Double]
    /// Bytes of resident memory the device allows, if it has a budget.
    public var memoryBudget: Int?
    /// Bytes of dirty memory the device allows an app in the background, if it has a budget.
    public var backgroundMemory: Int?
    /// This host's reference-workload seconds by kind (calibrated tiers only).
    public var hostReference: [PhaseKind: Double]?
    /// Which calibration gave ``hostReference``: when and how it was made (calibrated tiers; `nil` in
    /// results made before calibrations were cached).
    public var calibration: CalibrationInfo?

    public init(
        name: String, factors: [PhaseKind: Double], memoryBudget: Int?, hostReference: [PhaseKind: Double]?,
        backgroundMemory: Int? = nil, calibration: CalibrationInfo? = nil
    ) {
        self.backgroundMemory = backgroundMemory
        self.name = name
        self.factors = factors
        self.memoryBudget = memoryBudget
        self.hostReference = hostReference
        self.calibration = calibration
    }

    private enum CodingKeys: String, CodingKey {
        case name, factors, memoryBudget, backgroundMemory, hostReference, calibration
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        factors = Self.typed(try container.decode([String: Double].self, forKey: .factors))
        memoryBudget = try container.decodeIfPresent(Int.self, forKey: .memoryBudget)
        backgroundMemory = try container.decodeIfPresent(Int.self, forKey: .backgroundMemory)
        hostReference = try container.decodeIfPresent([String: Double].self, forKey: .hostReference).map(Self.typed)
        calibration = try container.decodeIfPresent(CalibrationInfo.self, forKey: .calibration)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(Self.named(factors), forKey: .factors)
        try container.encodeIfPresent(memoryBudget, forKey: .memoryBudget)
        try container.encodeIfPresent(backgroundMemory, forKey: .backgroundMemory)
        try container.encodeIfPresent(hostReference.map(Self.named), forKey: .hostReference)
        try container.encodeIfPresent(calibration, forKey: .calibration)
    }

    /// The kinds among `values`' keys; keys naming no kind are left out.
    private static func typed(_ values: [String: Double]) -> [PhaseKind: Double] {
        var out: [PhaseKind: Double] = [:]
        for (key, value) in values { if let kind = PhaseKind(rawValue: key) { out[kind] = value } }
        return out
    }

    private static func named(_ values: [PhaseKind: Double]) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) })
    }
}

/// Where a tier's host reference times came from (``TierInfo/calibration``, docs/tiers.md).
public struct CalibrationInfo: Codable, Equatable, Sendable {
    /// When the calibration was measured (ISO 8601, UTC).
    public var made: String
    /// The version of the reference workloads it timed (`HostReference.version`).
    public var referenceVersion: Int
    /// Fresh processes it was measured in.
    public var processes: Int
    /// How this run got it: `cache` (this host's cached calibration), `measured` (measured now, the
    /// cache was missing or unusable), `baseline` (a stored baseline's, same host: `check`).
    public var source: String
    /// The host fingerprint it belongs to (hex): CPU model, cores, kernel, architecture, reference version, build.
    public var host: String
    /// The core's clock (GHz) its reference seconds are at: it is counted in clock cycles, in seconds
    /// at the clock this host's first calibration saw (the median of its processes'), which a
    /// calibration measured again keeps (docs/tiers.md, "Counted in clock cycles"); `nil` for a
    /// calibration that read no clock, and in results made before it was recorded.
    public var clockGigahertz: Double?

    public init(made: String, referenceVersion: Int, processes: Int, source: String, host: String, clockGigahertz: Double? = nil) {
        self.made = made
        self.referenceVersion = referenceVersion
        self.processes = processes
        self.source = source
        self.host = host
        self.clockGigahertz = clockGigahertz
    }
}

/// The tool that wrote a result.
public struct ToolInfo: Codable, Equatable, Sendable {
    public var name: String
    public var version: String
    /// `debug` or `release`: how this launchprof (and the built-in app beside it) was compiled; `nil`
    /// in results made before it was recorded.
    public var build: String?

    public init(name: String, version: String, build: String? = nil) {
        self.name = name
        self.version = version
        self.build = build
    }

    /// This build of launchprof.
    public static let current = ToolInfo(name: "launchprof", version: launchprofVersion, build: buildConfiguration)

    /// How this module was compiled.
    public static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }
}

/// launchprof's version.
public let launchprofVersion = "0.1.0"

/// The manifest a result was launched from.
public struct ManifestInfo: Codable, Equatable, Sendable {
    /// The manifest's `name`.
    public var name: String
    /// The path it was read from, as given.
    public var path: String
    /// SHA-256 of the manifest file's bytes, in hex.
    public var sha256: String

    public init(name: String, path: String, sha256: String) {
        self.name = name
        self.path = path
        self.sha256 = sha256
    }
}

/// The git state of the directory a result was made in.
public struct GitInfo: Codable, Equatable, Sendable {
    public var commit: String
    public var branch: String?
    /// `true` when the work tree had uncommitted changes.
    public var dirty: Bool

    public init(commit: String, branch: String?, dirty: Bool) {
        self.commit = commit
        self.branch = branch
        self.dirty = dirty
    }
}

/// The result document: what was launched, where, and every phase of every run.
///
/// Stored as JSON (see `docs/result.schema.json`). ``schemaVersion`` changes whenever a field
/// changes meaning; readers refuse versions they do not know.
public struct LaunchResult: Codable, Equatable, Sendable {
    /// The schema version this build writes and reads.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var tool: ToolInfo
    /// ISO 8601 date and time the result was made.
    public var date: String
    public var manifest: ManifestInfo
    public var host: HostInfo
    /// The git state of the working directory, when it is a git work tree.
    public var git: GitInfo?
    public var runs: [RunRecord]

    public init(schemaVersion: Int = LaunchResult.currentSchemaVersion, tool: ToolInfo = .current, date: String,
                manifest: ManifestInfo, host: HostInfo, git: GitInfo? = nil, runs: [RunRecord]) {
        self.schemaVersion = schemaVersion
        self.tool = tool
        self.date = date
        self.manifest = manifest
        self.host = host
        self.git = git
        self.runs = runs
    }
}

/// The tool that wrote a result.
public struct ToolInfo: Codable, Equatable, Sendable {
    public var name: String
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// This build of launchprof.
    public static let current = ToolInfo(name: "launchprof", version: launchprofVersion)
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

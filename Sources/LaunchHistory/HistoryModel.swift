import LaunchChangePoints
import LaunchCore

/// The commit a stored result was made at: its hash, and what git said of it when it was stored
/// (`nil` where it was not known, e.g. a result imported outside its repository).
public struct CommitInfo: Equatable, Hashable, Sendable {
    public var hash: String
    /// Parent hashes, the first parent first.
    public var parents: [String]?
    /// ISO 8601 dates (`git log --format=%aI/%cI`).
    public var authorDate: String?
    public var commitDate: String?
    public var branch: String?

    public init(hash: String, parents: [String]? = nil, authorDate: String? = nil, commitDate: String? = nil, branch: String? = nil) {
        self.hash = hash
        self.parents = parents
        self.authorDate = authorDate
        self.commitDate = commitDate
        self.branch = branch
    }
}

extension SeriesTarget {
    /// The target of `result`.
    public init(_ result: LaunchResult) {
        self.init(kind: result.command == nil ? .manifest : .command, name: result.manifest.name)
    }
}

/// The environment a result was measured in, as a short key: the host fields a comparison refuses
/// to mix (CPU model, cores, kernel, architecture; ``LaunchStats/EnvironmentCheck``).
public enum EnvironmentKey {
    /// 16 hex digits of the SHA-256 of the host's CPU model, cores, kernel and architecture.
    public static func of(_ host: HostInfo) -> String {
        String(SHA256.hex(of: Array(description(host).utf8)).prefix(16))
    }

    /// The fields the key is made of, for people: `Intel Xeon, 2 cores, Linux 6.1.0, x86_64`.
    public static func description(_ host: HostInfo) -> String {
        "\(host.cpuModel), \(host.cores) cores, \(host.os), \(host.architecture)"
    }
}

/// One stored result, without its runs: what `history list` prints and lookups match on.
public struct HistoryEntry: Equatable, Sendable {
    /// The store's own name for it: a row number, or a file name in a results directory.
    public var id: String
    public var commit: CommitInfo
    /// Recorded with uncommitted changes.
    public var dirty: Bool
    /// ``EnvironmentKey/of(_:)`` of its host, and the host in words.
    public var environment: String
    public var host: String
    /// The tier's name (`host` when it ran unthrottled).
    public var tier: String
    public var metric: Metric
    public var target: SeriesTarget
    /// When the result was made (its `date`).
    public var date: String
    public var runCount: Int
    /// The median launch total (seconds, or instructions), `nil` without runs.
    public var total: Double?
}

/// One commit's values in a series: each run's value, in run order.
public struct SeriesPoint: Equatable, Sendable {
    public var commit: CommitInfo
    /// Seconds (time), instructions, or bytes (peak memory), one per run.
    public var runs: [Double]
}

/// A phase's values across commits, oldest first (``CommitOrder``).
public struct HistorySeries: Equatable, Sendable {
    public var key: SeriesKey
    public var points: [SeriesPoint]
}

/// How a series orders its commits.
public enum CommitOrder: Sendable, Equatable {
    /// A git first-parent history, oldest first (`git rev-list --first-parent --reverse HEAD`):
    /// results at commits not on it are left out.
    case firstParent([String])
    /// By commit date (then author date, then the result's date) when there is no git history to ask.
    case date
}

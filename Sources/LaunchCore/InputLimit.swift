/// The kinds of file launchprof reads, each with the largest size it accepts (`docs/limits.md`,
/// "Input files"): the one place the limits are defined. Each is far above any real input of its
/// kind and far below what would strain memory. Read with ``FileIO/read(_:limit:)-(_,InputLimit)``.
public enum InputLimit: Sendable, CaseIterable {
    /// A launch manifest (JSON, a few hundred bytes).
    case manifest
    /// A theme XML file (the heavy fixture's is 8.7 KB).
    case theme
    /// A data XML file of a `data` stage (the heavy fixture's conversions are 144 KB).
    case data
    /// A tiers file (`--tiers`, JSON: a few lines per tier).
    case tiers
    /// A budgets file (`check --budget`, JSON: a line per phase).
    case budgets
    /// A PNG asset: atlas, icon or texture (decoding has its own limits on width, height and bytes).
    case asset
    /// A settings file (JSON).
    case settings
    /// Any other hand-written JSON configuration.
    case configuration
    /// A result (JSON), read in bounded chunks by the streaming reader (`ResultLimits`).
    case result
    /// A startup trace a launched program wrote (`--trace git-trace2`, `--trace chrome-trace`).
    case trace
    /// Anything else read whole (Callgrind output is limited separately).
    case general

    /// The limit in bytes.
    public var bytes: Int {
        switch self {
        case .manifest, .tiers, .budgets, .settings, .configuration: 1 << 20
        case .theme: 16 << 20
        case .data: 64 << 20
        case .asset: 64 << 20
        case .result: 1 << 30
        case .trace: 256 << 20
        case .general: 64 << 20
        }
    }

    /// What the file is, for messages: `theme`, `data file`, `PNG asset`.
    public var name: String {
        switch self {
        case .manifest: "manifest"
        case .theme: "theme"
        case .data: "data file"
        case .tiers: "tiers file"
        case .budgets: "budgets file"
        case .asset: "PNG asset"
        case .settings: "settings file"
        case .configuration: "configuration file"
        case .result: "result"
        case .trace: "trace file"
        case .general: "file"
        }
    }

    /// `16 MiB`, `1 GiB`, `512 bytes`.
    public static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

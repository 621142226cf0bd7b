/// The largest file of each kind launchprof reads (docs/limits.md). Each is far above any real
/// input of its kind and far below what would strain memory.
public enum InputLimit: Sendable {
    /// A manifest, a tiers file, a budgets file (hand-written JSON of a few KB).
    case configuration
    /// A theme XML file (the heavy fixture's is 8.7 KB).
    case theme
    /// A data XML file (the heavy fixture's conversions are 144 KB).
    case data
    /// A PNG asset (decoding has its own limits on width, height and decoded bytes).
    case asset
    /// Anything else read whole (Callgrind output is limited separately).
    case general

    /// The limit in bytes.
    public var bytes: Int {
        switch self {
        case .configuration: 1 << 20
        case .theme: 16 << 20
        case .data: 64 << 20
        case .asset: 64 << 20
        case .general: 64 << 20
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

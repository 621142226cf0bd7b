/// Whether the files a launch reads were in the page cache (`warm`) or evicted before each run
/// (`cold`, `--cold`). Written in results as the string, as `docs/result.schema.json` allows.
public enum RunMode: String, Codable, Equatable, Sendable, CustomStringConvertible {
    case warm
    case cold

    public var description: String { rawValue }
}

import LaunchCore

/// The manifest's strategies as `launchprof compare` switches them: each key, its value when on
/// and when off (as JSON text), and the strategies it needs. Turning one on turns on what it needs;
/// turning one off turns off what needs it, so both sides stay valid manifests.
public enum StrategyCatalog {
    public struct Entry: Sendable, Equatable {
        /// The key under `strategies`.
        public let key: String
        /// The value that turns it on when the manifest has none.
        public let onJSON: String
        /// The value that turns it off; `nil`: the key is removed.
        public let offJSON: String?
        /// Strategies that must be on for this one.
        public let needs: [String]
    }

    public static let entries: [Entry] = [
        Entry(key: "reuseKeyBackgrounds", onJSON: "true", offJSON: "false", needs: []),
        Entry(key: "snapshotFirst", onJSON: "true", offJSON: "false", needs: []),
        Entry(key: "queueInputDuringLaunch", onJSON: "true", offJSON: "false", needs: []),
        Entry(key: "loadingDialog", onJSON: #"{ "showAfter": 1.0, "minMessageSeconds": 1.5 }"#, offJSON: nil, needs: ["snapshotFirst"]),
        Entry(key: "releaseCachesOnBackground", onJSON: "true", offJSON: "false", needs: []),
        Entry(key: "sendReportOnClose", onJSON: #"{ "seconds": 2.0 }"#, offJSON: nil, needs: []),
        Entry(key: "coalescedLayout", onJSON: "true", offJSON: "false", needs: []),
        Entry(key: "backgroundDecode", onJSON: #"{ "threads": 2 }"#, offJSON: nil, needs: []),
        Entry(key: "thumbnailsFirst", onJSON: "true", offJSON: "false", needs: ["backgroundDecode"]),
        Entry(key: "checkStaleDecodes", onJSON: "true", offJSON: "false", needs: ["backgroundDecode"]),
        // The stage is the manifest's first lazy data stage (StrategyVariants fills it in).
        Entry(key: "preload", onJSON: #"{ "stage": "loading conversions", "during": "launch animation" }"#, offJSON: nil, needs: [])
    ]

    /// The entry for `key`, or `nil` for a key that is not a strategy.
    public static func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }

    /// The strategies that need `key`, directly or through another.
    public static func dependents(of key: String) -> [String] {
        var found: [String] = []
        var frontier = [key]
        while let next = frontier.popLast() {
            for entry in entries where entry.needs.contains(next) && !found.contains(entry.key) {
                found.append(entry.key)
                frontier.append(entry.key)
            }
        }
        return found
    }

    /// The catalog's on-value of `key` made to fit the manifest whose `stages` (its JSON array) are
    /// given: `preload` names the manifest's first lazy data stage (the catalog's own stage name
    /// when it has none, which the manifest check then refuses, naming the lazy stages). Other
    /// values are returned unchanged.
    static func fitted(_ key: String, _ value: JSONValue, stages: JSONValue?) -> JSONValue {
        guard key == "preload", var spec = value.object else { return value }
        let lazyData = (stages?.array ?? []).compactMap(\.object).first { $0["lazy"]?.bool == true && $0["run"]?.string == "data" }
        if let name = lazyData?["name"]?.string { spec["stage"] = .string(name) }
        return .object(spec)
    }
}

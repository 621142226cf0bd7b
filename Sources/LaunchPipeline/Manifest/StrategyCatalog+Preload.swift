extension StrategyCatalog {
    /// The catalog's on-value of `key` made to fit the manifest whose `stages` (its JSON array) are
    /// given: `preload` names the manifest's first lazy data stage (the catalog's own stage name
    /// when it has none, which the manifest check then refuses, naming the lazy stages). Other
    /// values are returned unchanged.
    static func fitted(_ key: String, _ value: Any, stages: Any?) -> Any {
        guard key == "preload", var spec = value as? [String: Any] else { return value }
        let lazyData = (stages as? [[String: Any]] ?? []).first { ($0["lazy"] as? Bool) == true && ($0["run"] as? String) == "data" }
        if let name = lazyData?["name"] as? String { spec["stage"] = name }
        return spec
    }
}

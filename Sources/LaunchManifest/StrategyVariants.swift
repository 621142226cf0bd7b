import LaunchCore

/// A manifest with one strategy switched off and on (``StrategyCatalog``), for `launchprof compare`:
/// both copies have every path made absolute, so they can be written anywhere and still read the
/// same theme, assets and data.
public struct StrategyVariants {
    /// The manifest with the strategy off, and what needs it off.
    public let off: [UInt8]
    /// The manifest with the strategy on, and what it needs on.
    public let on: [UInt8]

    /// The variants of the manifest `bytes` (read from a file in the absolute `directory`).
    public init(strategy: String, manifest bytes: [UInt8], path: String, directory: String) throws(ManifestError) {
        guard StrategyCatalog.entry(strategy) != nil else {
            throw .unknownStrategy(strategy)
        }
        guard var root = (try? JSONParser.parse(bytes))?.object else {
            throw ManifestError.input(file: path, keyPath: nil, problem: .notAnObject)
        }
        func absolute(_ value: JSONValue?) -> JSONValue? {
            guard let text = value?.string else { return value }
            return .string(FileIO.resolve(text, relativeTo: directory))
        }
        for key in ["theme", "assets", "snapshot"] where root[key] != nil { root[key] = absolute(root[key]) }
        if root["assets"] == nil { root["assets"] = absolute(.string(".")) }
        if let stages = root["stages"]?.array, stages.allSatisfy({ $0.object != nil }) {
            root["stages"] = .array(
                stages.compactMap(\.object).map { stage in
                    var stage = stage
                    if stage["file"] != nil { stage["file"] = absolute(stage["file"]) }
                    // A settings stage without a file reads settings.json beside the manifest: the
                    // user's manifest, not the variant written elsewhere.
                    if stage["file"] == nil, stage["run"]?.string == "settings" { stage["file"] = absolute(.string("settings.json")) }
                    return .object(stage)
                })
        }
        let strategies = root["strategies"]?.object ?? JSONValue.Object()
        func value(_ json: String) -> JSONValue { (try? JSONParser.parse(Array(json.utf8))) ?? .null }

        var offStrategies = strategies
        for key in [strategy] + StrategyCatalog.dependents(of: strategy) {
            offStrategies[key] = StrategyCatalog.entry(key)?.offJSON.map(value)
        }
        var onStrategies = strategies
        var needed = [strategy]
        while let key = needed.popLast() {
            guard let entry = StrategyCatalog.entry(key) else { continue }
            // A strategy the manifest turns on keeps its own settings; otherwise the catalog's.
            let isOn = onStrategies[key].map { $0 != .null && $0 != .bool(false) } ?? false
            if !isOn { onStrategies[key] = StrategyCatalog.fitted(key, value(entry.onJSON), stages: root["stages"]) }
            needed += entry.needs
        }
        func encoded(_ strategies: JSONValue.Object) -> [UInt8] {
            var manifest = root
            manifest["strategies"] = .object(strategies)
            return Array(JSONWriter.pretty(.object(manifest)).utf8)
        }
        off = encoded(offStrategies)
        on = encoded(onStrategies)
    }

    /// The strategies the manifest `bytes` lists under "strategies", in the catalog's order.
    public static func listed(in bytes: [UInt8]) -> [String] {
        let listed = (try? JSONParser.parse(bytes))?.object?["strategies"]?.object ?? JSONValue.Object()
        return StrategyCatalog.entries.map(\.key).filter { listed[$0] != nil }
    }
}

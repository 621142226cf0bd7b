import Foundation
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
    public init(strategy: String, manifest bytes: [UInt8], path: String, directory: String) throws(PipelineError) {
        guard StrategyCatalog.entry(strategy) != nil else {
            throw PipelineError("unknown strategy '\(strategy)' (strategies: \(StrategyCatalog.entries.map(\.key).joined(separator: ", ")))")
        }
        guard var root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw PipelineError.input(path, "not a JSON object")
        }
        func absolute(_ value: Any?) -> Any? {
            guard let text = value as? String else { return value }
            return FileIO.resolve(text, relativeTo: directory)
        }
        for key in ["theme", "assets", "snapshot"] where root[key] != nil { root[key] = absolute(root[key]) }
        if root["assets"] == nil { root["assets"] = absolute(".") }
        if let stages = root["stages"] as? [[String: Any]] {
            root["stages"] = stages.map { stage in
                var stage = stage
                if stage["file"] != nil { stage["file"] = absolute(stage["file"]) }
                // A settings stage without a file reads settings.json beside the manifest: the
                // user's manifest, not the variant written elsewhere.
                if stage["file"] == nil, stage["run"] as? String == "settings" { stage["file"] = absolute("settings.json") }
                return stage
            }
        }
        let strategies = root["strategies"] as? [String: Any] ?? [:]
        func value(_ json: String) -> Any { (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) ?? NSNull() }

        var offStrategies = strategies
        for key in [strategy] + StrategyCatalog.dependents(of: strategy) {
            offStrategies[key] = StrategyCatalog.entry(key)?.offJSON.map(value)
        }
        var onStrategies = strategies
        var needed = [strategy]
        while let key = needed.popLast() {
            guard let entry = StrategyCatalog.entry(key) else { continue }
            // A strategy the manifest turns on keeps its own settings; otherwise the catalog's.
            let isOn = onStrategies[key].map { !($0 is NSNull) && ($0 as? Bool) != false } ?? false
            if !isOn { onStrategies[key] = StrategyCatalog.fitted(key, value(entry.onJSON), stages: root["stages"]) }
            needed += entry.needs
        }
        func encoded(_ strategies: [String: Any]) throws(PipelineError) -> [UInt8] {
            var manifest = root
            manifest["strategies"] = strategies
            do { return Array(try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .prettyPrinted])) } catch {
                throw PipelineError.input(path, "cannot write the \(strategy) variant: \(error)")
            }
        }
        off = try encoded(offStrategies)
        on = try encoded(onStrategies)
    }

    /// The strategies the manifest `bytes` lists under "strategies", in the catalog's order.
    public static func listed(in bytes: [UInt8]) -> [String] {
        let root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
        let listed = root?["strategies"] as? [String: Any] ?? [:]
        return StrategyCatalog.entries.map(\.key).filter { listed[$0] != nil }
    }
}

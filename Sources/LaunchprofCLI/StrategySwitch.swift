import LaunchCore
import LaunchManifest

/// The two manifests `launchprof compare` launches for one strategy (``StrategyVariants``), written
/// to a temporary directory.
struct StrategySwitch {
    let strategy: String
    let off: String
    let on: String

    /// The strategies the manifest at `path` lists under "strategies".
    static func strategies(inManifest path: String) throws -> [String] {
        StrategyVariants.listed(in: try FileIO.read(path, limit: .manifest))
    }

    /// Writes the pair for `strategy` of the manifest at `path` into `directory`.
    static func make(strategy: String, manifest path: String, directory: String) throws -> StrategySwitch {
        // The manifest's own directory, absolute: the rewritten copies live elsewhere.
        let base = try FileIO.absoluteDirectory(of: path)
        let variants = try StrategyVariants(strategy: strategy, manifest: try FileIO.read(path, limit: .manifest), path: path, directory: base)
        let name = path.split(separator: "/").last.map(String.init) ?? "manifest.json"
        let offPath = "\(directory)/\(strategy)-off-\(name)", onPath = "\(directory)/\(strategy)-on-\(name)"
        try FileIO.writeAtomically(variants.off, to: offPath)
        try FileIO.writeAtomically(variants.on, to: onPath)
        return StrategySwitch(strategy: strategy, off: offPath, on: onPath)
    }
}

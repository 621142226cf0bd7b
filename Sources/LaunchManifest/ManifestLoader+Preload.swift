extension ManifestLoader {
    /// Reads `strategies.preload` (`node`, `nil` when absent): exactly `stage`, naming a lazy data
    /// stage of `stages`, and `during`, `"launch animation"`; the animation redraws the keys, so a
    /// draw stage must run at launch.
    static func preload(_ node: Node?, stages: [StageSpec]) throws(ManifestError) -> PreloadSpec? {
        guard let node else { return nil }
        let object = try node.object(allowed: ["stage", "during"])
        let stageNode = try object.required("stage")
        let name = try stageNode.string()
        let lazyData = stages.filter { $0.lazy && $0.run == .data }.map { "\"\($0.name)\"" }
        let candidates = "lazy data stages: \(lazyData.isEmpty ? "none" : lazyData.joined(separator: ", "))"
        guard let stage = stages.first(where: { $0.name == name }) else {
            throw stageNode.error("no stage is named \"\(name)\" (\(candidates))")
        }
        guard stage.lazy, stage.run == .data else {
            throw stageNode.error("\"\(name)\" is not a lazy data stage: only what waits for its first use can be preloaded (\(candidates))")
        }
        let duringNode = try object.required("during")
        let during = try duringNode.string()
        guard let moment = PreloadSpec.Moment(rawValue: during) else {
            let accepted = PreloadSpec.Moment.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw duringNode.error("expected \(accepted) (the only moment a preload can hide under for now), found \"\(during)\"")
        }
        guard stages.contains(where: { $0.run == .draw && !$0.lazy }) else {
            throw node.error("the preload hides under the launch animation, which slides the drawn keys in, so the manifest needs a \"draw\" stage at launch")
        }
        return PreloadSpec(stage: name, during: moment)
    }
}

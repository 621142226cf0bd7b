extension ManifestLoader {
    /// Reads `strategies.preload` (`node`, `nil` when absent): exactly `stage`, naming a lazy data
    /// stage of `stages`, and `during`, `"launch animation"`; the animation redraws the keys, so a
    /// draw stage must run at launch.
    static func preload(_ node: Node?, stages: [StageSpec]) throws(ManifestError) -> PreloadSpec? {
        guard let node else { return nil }
        let object = try node.object(allowed: ["stage", "during"])
        let stageNode = try object.required("stage")
        let name = try stageNode.string()
        let lazyData = stages.filter { $0.lazy && $0.run == .data }.map(\.name)
        guard let stage = stages.first(where: { $0.name == name }) else {
            throw stageNode.error(.noStage(name: name, lazyData: lazyData))
        }
        guard stage.lazy, stage.run == .data else {
            throw stageNode.error(.notLazyData(name: name, lazyData: lazyData))
        }
        let duringNode = try object.required("during")
        let during = try duringNode.string()
        guard let moment = PreloadSpec.Moment(rawValue: during) else {
            throw duringNode.error(.invalid(.moment, found: .text(during)))
        }
        guard stages.contains(where: { $0.run == .draw && !$0.lazy }) else {
            throw node.error(.unmet(.preloadNeedsDraw))
        }
        return PreloadSpec(stage: name, during: moment)
    }
}

import LaunchCore

/// Reads a manifest JSON file (documented in `docs/manifest.md`), checking every key:
/// errors name the file and the key path and say what was expected.
public enum ManifestLoader {
    /// Reads the manifest at `path`; relative paths inside it resolve against its directory.
    public static func load(path: String) throws -> Manifest {
        try parse(try FileIO.read(path, limit: .manifest), path: path)
    }

    /// Parses manifest bytes; `path` names the file and anchors relative paths.
    public static func parse(_ bytes: [UInt8], path: String) throws(ManifestError) -> Manifest {
        let json = try JSONNesting.parse(
            bytes, tooDeep: { ManifestError.input(file: path, keyPath: nil, problem: .tooDeep(.manifest, line: $0.line, column: $0.column, limit: $0.limit)) },
            invalid: { .input(file: path, keyPath: nil, problem: .invalidJSON(.manifest, $0)) })
        let directory = FileIO.parentDirectory(of: path)
        let root = try Node(value: json, path: "", file: path).object(allowed: [
            "name", "theme", "assets", "screen", "orientations", "stages", "strategies", "snapshot", "splash", "test", "$comment"
        ])
        let screen = try Self.screen(root, path: path)
        let orientations = try Self.orientations(root)
        let stages = try Self.stages(root, directory: directory, path: path)
        let strategies = try Self.strategies(root, stages: stages)
        let test = try root.optional("test")?.object(allowed: ["slowdown", "slowFunction"])
        var slowdown: InjectedSlowdown?
        if let test { slowdown = try Self.slowdown(test, stages: stages) }
        var functionWork: InjectedFunctionWork?
        if let node = try test?.optional("slowFunction") { functionWork = try Self.functionWork(node) }
        var snapshot: String?
        if let node = try root.optional("snapshot") { snapshot = FileIO.resolve(try node.string(), relativeTo: directory) }
        let assets = FileIO.resolve(try root.optional("assets")?.string() ?? ".", relativeTo: directory)
        var splash: String?
        if let node = try root.optional("splash") {
            let name = try node.string()
            guard !name.isEmpty else { throw node.error(.invalid(.splashFile)) }
            splash = FileIO.resolve(name, relativeTo: assets)
        }
        try checkNeeds(of: strategies, snapshot: snapshot, splash: splash, stages: stages, path: path)
        return Manifest(
            path: path, sha256: SHA256.hex(of: bytes),
            name: try root.optional("name")?.string() ?? "unnamed",
            theme: FileIO.resolve(try root.required("theme").string(), relativeTo: directory),
            assets: assets,
            screen: screen, orientations: orientations, stages: stages, strategies: strategies,
            snapshot: snapshot, splash: splash, injectedSlowdown: slowdown,
            injectedFunctionWork: functionWork)
    }

    /// `screen`: width and height in points (1…8192), scale 1…4, at most 8192 pixels on a side.
    static func screen(_ root: Node, path: String) throws(ManifestError) -> Screen {
        let screenNode = try root.required("screen").object(allowed: ["width", "height", "scale"])
        let screen = Screen(
            width: try screenNode.required("width").int(min: 1, max: 8192),
            height: try screenNode.required("height").int(min: 1, max: 8192),
            scale: try screenNode.optional("scale")?.int(min: 1, max: 4) ?? 1)
        guard screen.width * screen.scale <= 8192, screen.height * screen.scale <= 8192 else {
            throw ManifestError.input(file: path, keyPath: "screen", problem: .screenTooLarge(screen))
        }
        return screen
    }

    /// `orientations`: portrait or landscape, each once (portrait when none is given).
    static func orientations(_ root: Node) throws(ManifestError) -> [Orientation] {
        let orientationNodes = try root.optional("orientations")?.array() ?? []
        var orientations: [Orientation] = []
        for node in orientationNodes {
            let name = try node.string()
            guard let orientation = Orientation(rawValue: name) else {
                throw node.error(.invalid(.orientation, found: .text(name)))
            }
            if !orientations.contains(orientation) { orientations.append(orientation) }
        }
        if orientations.isEmpty { orientations = [.portrait] }
        return orientations
    }

    /// `stages`: each with a known `run`, a unique name, a `file` where it takes one, `lazy` for
    /// data only; each one's prerequisites before it at launch.
    static func stages(_ root: Node, directory: String, path: String) throws(ManifestError) -> [StageSpec] {
        var stages: [StageSpec] = []
        for node in try root.required("stages").array() {
            let stage = try node.object(allowed: ["name", "run", "lazy", "file"])
            let runNode = try stage.required("run")
            let runName = try runNode.string()
            if runName == "snapshot" {
                throw runNode.error(.snapshotIsNotAStage)
            }
            guard let kind = StageKind(rawValue: runName) else {
                throw runNode.error(.invalid(.stageKind, found: .text(runName)))
            }
            let nameNode = try stage.required("name")
            let name = try nameNode.string()
            guard !name.isEmpty else { throw nameNode.error(.invalid(.nonEmptyName)) }
            guard !stages.contains(where: { $0.name == name }) else { throw nameNode.error(.duplicateStage(name: name)) }
            let fileNode = try stage.optional("file")
            var file: String?
            if let fileNode { file = FileIO.resolve(try fileNode.string(), relativeTo: directory) }
            if kind == .data, file == nil { throw stage.error(.dataStageNeedsFile) }
            if kind != .data, kind != .settings, let fileNode { throw fileNode.error(.fileNotTaken) }
            // The user's settings, beside the manifest unless the stage says where.
            if kind == .settings, file == nil { file = FileIO.resolve("settings.json", relativeTo: directory) }
            let lazy = try stage.optional("lazy")?.bool() ?? false
            if lazy, kind != .data { throw stage.error(.lazyNotData) }
            stages.append(StageSpec(name: name, run: kind, lazy: lazy, file: file))
        }
        guard !stages.isEmpty else { throw ManifestError.input(file: path, keyPath: "stages", problem: .invalid(.atLeastOneStage)) }
        // Each stage's prerequisites must run, at launch, before it.
        var ran: Set<String> = []
        for (i, stage) in stages.enumerated() where !stage.lazy {
            for needed in stage.run.requires where !ran.contains(needed.rawValue) {
                throw ManifestError.input(
                    file: path, keyPath: "stages[\(i)]", problem: .missingPrerequisite(name: stage.name, kind: stage.run, needed: needed))
            }
            ran.insert(stage.run.rawValue)
        }
        return stages
    }

    /// `strategies`: each a switch or a small object, with what it needs of the others.
    static func strategies(_ root: Node, stages: [StageSpec]) throws(ManifestError) -> Strategies {
        let strategiesNode = try root.optional("strategies")?.object(allowed: Set(StrategyCatalog.entries.map(\.key)))
        var strategies = Strategies(
            reuseKeyBackgrounds: try strategiesNode?.optional("reuseKeyBackgrounds")?.bool() ?? true,
            snapshotFirst: try strategiesNode?.optional("snapshotFirst")?.bool() ?? false,
            releaseCachesOnBackground: try strategiesNode?.optional("releaseCachesOnBackground")?.bool() ?? false,
            queueInputDuringLaunch: try strategiesNode?.optional("queueInputDuringLaunch")?.bool() ?? true)

        if let node = try strategiesNode?.optional("loadingDialog") {
            let dialog = try node.object(allowed: ["showAfter", "minMessageSeconds"])
            func seconds(_ key: String, _ fallback: Double) throws(ManifestError) -> Double {
                guard let valueNode = try dialog.optional(key) else { return fallback }
                let value = try valueNode.number()
                guard value >= 0, value <= 60 else { throw valueNode.error(.invalid(.seconds(maximum: 60), found: .number(value))) }
                return value
            }
            strategies.loadingDialog = LoadingDialogSpec(showAfter: try seconds("showAfter", 1.0), minMessageSeconds: try seconds("minMessageSeconds", 1.5))
        }

        strategies.coalescedLayout = try strategiesNode?.optional("coalescedLayout")?.bool() ?? false
        if let node = try strategiesNode?.optional("backgroundDecode") {
            let decode = try node.object(allowed: ["threads"])
            strategies.backgroundDecode = BackgroundDecodeSpec(threads: try decode.optional("threads")?.int(min: 1, max: 8) ?? 2)
        }
        for key in ["thumbnailsFirst", "checkStaleDecodes"] {
            guard let node = try strategiesNode?.optional(key) else { continue }
            let on = try node.bool()
            // Off is what a manifest without backgroundDecode does anyway; on needs the workers.
            if on, strategies.backgroundDecode == nil {
                throw node.error(.unmet(.backgroundDecode(strategy: key)))
            }
            if key == "thumbnailsFirst" { strategies.thumbnailsFirst = on } else { strategies.checkStaleDecodes = on }
        }
        strategies.preload = try preload(try strategiesNode?.optional("preload"), stages: stages)
        if let node = try strategiesNode?.optional("sendReportOnClose") {
            let report = try node.object(allowed: ["seconds"])
            let secondsNode = try report.required("seconds")
            let seconds = try secondsNode.number()
            guard seconds >= 0, seconds <= 60 else { throw secondsNode.error(.invalid(.seconds(maximum: 60), found: .number(seconds))) }
            strategies.sendReportOnClose = seconds
        }
        return strategies
    }

    /// `test.slowdown`: a launch stage made slower by `fraction` (0…100) of its rows or its CPU time (`of`).
    static func slowdown(_ test: Node, stages: [StageSpec]) throws(ManifestError) -> InjectedSlowdown? {
        guard let node = try test.optional("slowdown")?.object(allowed: ["stage", "fraction", "of"]) else { return nil }
        let stageNode = try node.required("stage")
        let stage = try stageNode.string()
        guard stages.contains(where: { $0.name == stage && !$0.lazy }) else {
            throw stageNode.error(.noLaunchStage(name: stage))
        }
        let fractionNode = try node.required("fraction")
        let fraction = try fractionNode.number()
        guard fraction >= 0, fraction <= 100 else { throw fractionNode.error(.invalid(.fraction, found: .number(fraction))) }
        var measure = InjectedSlowdown.Measure.rows
        if let ofNode = try node.optional("of") {
            let name = try ofNode.string()
            guard let given = InjectedSlowdown.Measure(rawValue: name) else {
                throw ofNode.error(.invalid(.measure, found: .text(name)))
            }
            measure = given
        }
        return InjectedSlowdown(stage: stage, fraction: fraction, measure: measure)
    }

    /// What the strategies need of the rest of the manifest: a snapshot path, a splash image, a draw stage.
    static func checkNeeds(
        of strategies: Strategies, snapshot: String?, splash: String?, stages: [StageSpec], path: String
    ) throws(ManifestError) {
        if strategies.sendReportOnClose != nil, snapshot == nil {
            throw unmet(.reportNeedsSnapshot, by: "sendReportOnClose", path: path)
        }
        if strategies.loadingDialog != nil, !strategies.snapshotFirst {
            throw unmet(.dialogNeedsSnapshotFirst, by: "loadingDialog", path: path)
        }
        if strategies.snapshotFirst {
            guard snapshot != nil else {
                throw unmet(.snapshotFirstNeedsSnapshot, by: "snapshotFirst", path: path)
            }
            guard splash != nil else {
                throw unmet(.snapshotFirstNeedsSplash, by: "snapshotFirst", path: path)
            }
            guard stages.contains(where: { $0.run == .draw && !$0.lazy }) else {
                throw unmet(.snapshotFirstNeedsDraw, by: "snapshotFirst", path: path)
            }
        }
    }

    /// `need`, unmet, of the strategy `strategy` (at `strategies.<strategy>`) in the manifest `path`.
    private static func unmet(_ need: ManifestProblem.Need, by strategy: String, path: String) -> ManifestError {
        .input(file: path, keyPath: "strategies.\(strategy)", problem: .unmet(need))
    }

    /// `test.slowFunction`: `{"function": "fillRoundedRect", "iterations": 2000}`.
    private static func functionWork(_ node: Node) throws(ManifestError) -> InjectedFunctionWork {
        let fields = try node.object(allowed: ["function", "iterations"])
        let nameNode = try fields.required("function")
        let name = try nameNode.string()
        guard InjectedFunctionWork.functions.contains(name) else {
            throw nameNode.error(.invalid(.injectedFunction, found: .text(name)))
        }
        let countNode = try fields.required("iterations")
        let count = try countNode.number()
        guard count >= 0, count <= Double(InjectedFunctionWork.maximumIterations), count == count.rounded() else {
            throw countNode.error(.invalid(.iterations(maximum: InjectedFunctionWork.maximumIterations), found: .number(count)))
        }
        return InjectedFunctionWork(function: name, iterations: Int(count))
    }

    /// A JSON value and its key path, with typed accessors whose errors name both.
    public struct Node {
        public init(value: JSONValue, path: String, file: String) {
            self.value = value
            self.path = path
            self.file = file
        }

        public let value: JSONValue
        public let path: String
        public let file: String

        /// `problem` at this value's key path.
        public func error(_ problem: ManifestProblem) -> ManifestError {
            .input(file: file, keyPath: path, problem: problem)
        }

        /// What this value is, for a message that says what was expected instead.
        private var found: ManifestProblem.Found { .kind(value.kindDescription) }

        public func object(allowed: Set<String>) throws(ManifestError) -> Node {
            guard let object = value.object else { throw error(.invalid(.object, found: found)) }
            if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw error(.unknownKey(unknown, allowed: allowed.filter { !$0.hasPrefix("$") }.sorted()))
            }
            return self
        }

        public func optional(_ key: String) throws(ManifestError) -> Node? {
            guard let object = value.object else { throw error(.invalid(.object, found: found)) }
            guard let child = object[key] else { return nil }
            return Node(value: child, path: path.isEmpty ? key : "\(path).\(key)", file: file)
        }

        public func required(_ key: String) throws(ManifestError) -> Node {
            guard let node = try optional(key) else {
                throw error(.missingKey(key))
            }
            return node
        }

        public func array() throws(ManifestError) -> [Node] {
            guard let items = value.array else { throw error(.invalid(.array, found: found)) }
            return items.enumerated().map { Node(value: $1, path: "\(path)[\($0)]", file: file) }
        }

        public func string() throws(ManifestError) -> String {
            guard let s = value.string else { throw error(.invalid(.string, found: found)) }
            return s
        }

        public func bool() throws(ManifestError) -> Bool {
            guard let b = value.bool else { throw error(.invalid(.boolean, found: found)) }
            return b
        }

        public func number() throws(ManifestError) -> Double {
            guard let n = value.number, n.isFinite else { throw error(.invalid(.number, found: found)) }
            return n
        }

        public func int(min: Int, max: Int) throws(ManifestError) -> Int {
            guard let n = value.number, n == n.rounded(), abs(n) < 1e15 else {
                throw error(.invalid(.wholeNumber, found: found))
            }
            let v = Int(n)
            guard v >= min, v <= max else { throw error(.invalid(.boundedWholeNumber(min: min, max: max), found: .wholeNumber(v))) }
            return v
        }
    }
}

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
        if let deep = JSONNesting.check(bytes) {
            throw ManifestError.input(path, "line \(deep.line), column \(deep.column): nested more than \(deep.limit) levels deep (a manifest needs 3)")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw ManifestError.input(path, "invalid JSON\(error.position)")
        }
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
            guard !name.isEmpty else { throw node.error("expected the file name of a PNG in the assets directory") }
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
            throw ManifestError.input(path, "screen: \(screen.width)×\(screen.height) @\(screen.scale)x is larger than 8192 pixels on a side")
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
                throw node.error("expected \"portrait\" or \"landscape\", found \"\(name)\"")
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
                throw runNode.error(
                    "\"snapshot\" is not a launch stage any more: the app saves its snapshot when it enters the background, after the launch (remove this stage; see docs/manifest.md)"
                )
            }
            guard let kind = StageKind(rawValue: runName) else {
                throw runNode.error("expected one of \(StageKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), found \"\(runName)\"")
            }
            let nameNode = try stage.required("name")
            let name = try nameNode.string()
            guard !name.isEmpty else { throw nameNode.error("expected a non-empty name") }
            guard !stages.contains(where: { $0.name == name }) else { throw nameNode.error("another stage is already named \"\(name)\"") }
            let fileNode = try stage.optional("file")
            var file: String?
            if let fileNode { file = FileIO.resolve(try fileNode.string(), relativeTo: directory) }
            if kind == .data, file == nil { throw stage.error("a \"data\" stage needs a \"file\"") }
            if kind != .data, kind != .settings, let fileNode { throw fileNode.error("only \"data\" and \"settings\" stages take a \"file\"") }
            // The user's settings, beside the manifest unless the stage says where.
            if kind == .settings, file == nil { file = FileIO.resolve("settings.json", relativeTo: directory) }
            let lazy = try stage.optional("lazy")?.bool() ?? false
            if lazy, kind != .data { throw stage.error("only \"data\" stages can be lazy (the UI needs the others to launch)") }
            stages.append(StageSpec(name: name, run: kind, lazy: lazy, file: file))
        }
        guard !stages.isEmpty else { throw ManifestError.input(path, "stages: expected at least one stage") }
        // Each stage's prerequisites must run, at launch, before it.
        var ran: Set<String> = []
        for (i, stage) in stages.enumerated() where !stage.lazy {
            for needed in stage.run.requires where !ran.contains(needed.rawValue) {
                throw ManifestError.input(
                    path, "stages[\(i)]: the \"\(stage.run.rawValue)\" stage (\(stage.name)) needs a \"\(needed.rawValue)\" stage before it")
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
                guard value >= 0, value <= 60 else { throw valueNode.error("expected seconds from 0 to 60, found \(value)") }
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
                throw node.error("\(key) is about images decoded on worker threads, so it needs backgroundDecode")
            }
            if key == "thumbnailsFirst" { strategies.thumbnailsFirst = on } else { strategies.checkStaleDecodes = on }
        }
        strategies.preload = try preload(try strategiesNode?.optional("preload"), stages: stages)
        if let node = try strategiesNode?.optional("sendReportOnClose") {
            let report = try node.object(allowed: ["seconds"])
            let secondsNode = try report.required("seconds")
            let seconds = try secondsNode.number()
            guard seconds >= 0, seconds <= 60 else { throw secondsNode.error("expected seconds from 0 to 60, found \(seconds)") }
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
            throw stageNode.error("no launch stage is named \"\(stage)\"")
        }
        let fractionNode = try node.required("fraction")
        let fraction = try fractionNode.number()
        guard fraction >= 0, fraction <= 100 else { throw fractionNode.error("expected a fraction from 0 to 100, found \(fraction)") }
        var measure = InjectedSlowdown.Measure.rows
        if let ofNode = try node.optional("of") {
            let name = try ofNode.string()
            guard let given = InjectedSlowdown.Measure(rawValue: name) else {
                throw ofNode.error("expected \"rows\" or \"cpuTime\", found \"\(name)\"")
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
            throw ManifestError.input(
                path, "strategies.sendReportOnClose: the report is sent while holding the saved state's lock, so the manifest needs a \"snapshot\" path")
        }
        if strategies.loadingDialog != nil, !strategies.snapshotFirst {
            throw ManifestError.input(path, "strategies.loadingDialog: the dialog is drawn over the saved snapshot, so it needs snapshotFirst")
        }
        if strategies.snapshotFirst {
            guard snapshot != nil else {
                throw ManifestError.input(path, "strategies.snapshotFirst: the app shows its saved snapshot first, so the manifest needs a \"snapshot\" path")
            }
            guard splash != nil else {
                throw ManifestError.input(
                    path, "strategies.snapshotFirst: a first launch has no snapshot to show, so the manifest needs a \"splash\" image (an asset)")
            }
            guard stages.contains(where: { $0.run == .draw && !$0.lazy }) else {
                throw ManifestError.input(
                    path, "strategies.snapshotFirst: the real UI must be drawn after the snapshot, so the manifest needs a \"draw\" stage")
            }
        }
    }

    /// `test.slowFunction`: `{"function": "fillRoundedRect", "iterations": 2000}`.
    private static func functionWork(_ node: Node) throws(ManifestError) -> InjectedFunctionWork {
        let fields = try node.object(allowed: ["function", "iterations"])
        let nameNode = try fields.required("function")
        let name = try nameNode.string()
        guard InjectedFunctionWork.functions.contains(name) else {
            throw nameNode.error("expected one of \(InjectedFunctionWork.functions.joined(separator: ", ")), found \"\(name)\"")
        }
        let countNode = try fields.required("iterations")
        let count = try countNode.number()
        guard count >= 0, count <= Double(InjectedFunctionWork.maximumIterations), count == count.rounded() else {
            throw countNode.error("expected a whole number of iterations from 0 to \(InjectedFunctionWork.maximumIterations), found \(count)")
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

        public func error(_ reason: String) -> ManifestError {
            // Keys and values quoted from the file may hold line breaks: the message stays one line.
            ManifestError.input(file, PlainText.oneLine("\(path.isEmpty ? "top level" : path): \(reason)"))
        }

        private var typeName: String { value.kindDescription }

        public func object(allowed: Set<String>) throws(ManifestError) -> Node {
            guard let object = value.object else { throw error("expected an object, found \(typeName)") }
            if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw error("unknown key \"\(unknown)\" (expected: \(allowed.filter { !$0.hasPrefix("$") }.sorted().joined(separator: ", ")))")
            }
            return self
        }

        public func optional(_ key: String) throws(ManifestError) -> Node? {
            guard let object = value.object else { throw error("expected an object, found \(typeName)") }
            guard let child = object[key] else { return nil }
            return Node(value: child, path: path.isEmpty ? key : "\(path).\(key)", file: file)
        }

        public func required(_ key: String) throws(ManifestError) -> Node {
            guard let node = try optional(key) else {
                throw ManifestError.input(file, "\(path.isEmpty ? "" : "\(path): ")missing required key \"\(key)\"")
            }
            return node
        }

        public func array() throws(ManifestError) -> [Node] {
            guard let items = value.array else { throw error("expected an array, found \(typeName)") }
            return items.enumerated().map { Node(value: $1, path: "\(path)[\($0)]", file: file) }
        }

        public func string() throws(ManifestError) -> String {
            guard let s = value.string else { throw error("expected a string, found \(typeName)") }
            return s
        }

        public func bool() throws(ManifestError) -> Bool {
            guard let b = value.bool else { throw error("expected true or false, found \(typeName)") }
            return b
        }

        public func number() throws(ManifestError) -> Double {
            guard let n = value.number, n.isFinite else { throw error("expected a number, found \(typeName)") }
            return n
        }

        public func int(min: Int, max: Int) throws(ManifestError) -> Int {
            guard let n = value.number, n == n.rounded(), abs(n) < 1e15 else {
                throw error("expected a whole number, found \(typeName)")
            }
            let v = Int(n)
            guard v >= min, v <= max else { throw error("expected a whole number from \(min) to \(max), found \(v)") }
            return v
        }
    }
}

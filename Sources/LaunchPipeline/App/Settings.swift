import LaunchCore
import LaunchManifest

/// The user's saved settings (`settings.json`, docs/manifest.md): applied at launch by the
/// `settings` stage, one setter each, and written back by the background step.
public struct Settings: Equatable, Sendable {
    public enum AngleMode: String, Sendable, CaseIterable { case deg, rad, grad }
    public enum DisplayMode: String, Sendable, CaseIterable { case standard, scientific, engineering }

    /// One setter call: a setting and its new value.
    public enum Change: Equatable, Sendable {
        case angleMode(AngleMode)
        case displayMode(DisplayMode)
        case memoryIndicator(Bool)
        case precision(Int)
        case thousandsSeparator(Bool)
        case title(String)
        case subtitle(String)
        case sounds(Bool)
        case haptics(Bool)
        /// The key whose theme label is the first string shows the second.
        case keyLabel(String, String)
    }

    public var angleMode = AngleMode.deg
    public var displayMode = DisplayMode.standard
    public var memoryIndicator = false
    public var precision = 10
    public var thousandsSeparator = true
    public var title = ""
    public var subtitle = ""
    public var sounds = true
    public var haptics = true
    /// Theme label → label shown, for the keys the user's mode relabels.
    public var keyLabels: [String: String] = [:]

    public init() {}

    /// The settings after `change`.
    public func applying(_ change: Change) -> Settings {
        var s = self
        switch change {
        case .angleMode(let v): s.angleMode = v
        case .displayMode(let v): s.displayMode = v
        case .memoryIndicator(let v): s.memoryIndicator = v
        case .precision(let v): s.precision = v
        case .thousandsSeparator(let v): s.thousandsSeparator = v
        case .title(let v): s.title = v
        case .subtitle(let v): s.subtitle = v
        case .sounds(let v): s.sounds = v
        case .haptics(let v): s.haptics = v
        case .keyLabel(let key, let label): s.keyLabels[key] = label
        }
        return s
    }

    /// The setter calls that turn the defaults into these settings, in a fixed order.
    public var changes: [Change] {
        var list: [Change] = [
            .angleMode(angleMode), .displayMode(displayMode), .memoryIndicator(memoryIndicator), .precision(precision),
            .thousandsSeparator(thousandsSeparator), .title(title), .subtitle(subtitle), .sounds(sounds), .haptics(haptics)
        ]
        for key in keyLabels.keys.sorted() { list.append(.keyLabel(key, keyLabels[key] ?? key)) }
        return list
    }

    public static let maximumKeyLabels = 64
    /// The characters a key label may have.
    public static let keyLabelLength = 1...8

    /// The settings file's JSON, keys sorted, so the same settings give the same bytes.
    public var json: [UInt8] {
        func quoted(_ s: String) -> String { JSONText.quoted(s) }
        var lines = [
            "  \"angleMode\": \(quoted(angleMode.rawValue))", "  \"displayMode\": \(quoted(displayMode.rawValue))",
            "  \"haptics\": \(haptics)"
        ]
        let labels = keyLabels.keys.sorted().map { "    \(quoted($0)): \(quoted(keyLabels[$0] ?? $0))" }
        lines.append("  \"keyLabels\": {" + (labels.isEmpty ? "}" : "\n" + labels.joined(separator: ",\n") + "\n  }"))
        lines += [
            "  \"memoryIndicator\": \(memoryIndicator)", "  \"precision\": \(precision)", "  \"sounds\": \(sounds)",
            "  \"subtitle\": \(quoted(subtitle))", "  \"thousandsSeparator\": \(thousandsSeparator)", "  \"title\": \(quoted(title))"
        ]
        return Array(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
    }

    /// Reads `path` (bounded, a regular file); `nil` when there is none (a first launch). Every
    /// value is checked: key labels name a key of `theme` and use only its label font's characters.
    public static func load(path: String, theme: Theme) throws(PipelineError) -> Settings? {
        guard FileIO.exists(path) else { return nil }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: .settings) } catch { throw .file(error) }
        return try parse(bytes, path: path, theme: theme)
    }

    /// Parses settings bytes; `path` names the file in errors.
    public static func parse(_ bytes: [UInt8], path: String, theme: Theme) throws(PipelineError) -> Settings {
        do { return try read(bytes, path: path, theme: theme) } catch { throw .manifest(error) }
    }

    /// ``parse(_:path:theme:)``'s steps, read with the manifest's key-path reader (``ManifestLoader/Node``).
    private static func read(_ bytes: [UInt8], path: String, theme: Theme) throws(ManifestError) -> Settings {
        let json = try JSONNesting.parse(
            bytes, tooDeep: { ManifestError.input(file: path, keyPath: nil, problem: .tooDeep(.settings, line: $0.line, column: $0.column, limit: $0.limit)) },
            invalid: { .input(file: path, keyPath: nil, problem: .invalidJSON(.settings, $0)) })
        let root = try ManifestLoader.Node(value: json, path: "", file: path).object(allowed: [
            "$comment", "angleMode", "displayMode", "memoryIndicator", "precision", "thousandsSeparator", "title", "subtitle",
            "sounds", "haptics", "keyLabels"
        ])
        var s = Settings()
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(ManifestError) -> T? where T.RawValue == String {
            guard let node = try root.optional(key) else { return nil }
            let text = try node.string()
            guard let value = T(rawValue: text) else {
                throw node.error(.invalid(.oneOf(T.allCases.map(\.rawValue)), found: .excerpt(text)))
            }
            return value
        }
        func text(_ key: String, max: Int) throws(ManifestError) -> String? {
            guard let node = try root.optional(key) else { return nil }
            let value = try node.string()
            guard value.count <= max else { throw node.error(.invalid(.atMostCharacters(max), found: .wholeNumber(value.count))) }
            return value
        }
        if let v = try choice("angleMode", AngleMode.self) { s.angleMode = v }
        if let v = try choice("displayMode", DisplayMode.self) { s.displayMode = v }
        if let v = try root.optional("memoryIndicator")?.bool() { s.memoryIndicator = v }
        if let v = try root.optional("precision")?.int(min: 0, max: 12) { s.precision = v }
        if let v = try root.optional("thousandsSeparator")?.bool() { s.thousandsSeparator = v }
        if let v = try text("title", max: 40) { s.title = v }
        if let v = try text("subtitle", max: 60) { s.subtitle = v }
        if let v = try root.optional("sounds")?.bool() { s.sounds = v }
        if let v = try root.optional("haptics")?.bool() { s.haptics = v }
        if let node = try root.optional("keyLabels") {
            guard let dict = node.value.object else { throw node.error(.invalid(.keyLabelObject)) }
            guard dict.count <= maximumKeyLabels else { throw node.error(.invalid(.atMostKeyLabels(maximumKeyLabels), found: .wholeNumber(dict.count))) }
            let labels = Set(theme.layouts.values.flatMap { $0.keys.compactMap(\.label) })
            let glyphs = Set(theme.fonts["label"]?.characters ?? FontSpec.defaultCharacters)
            for key in dict.keys.sorted() {
                guard let child = try node.optional(key) else { continue }
                guard labels.contains(key) else { throw child.error(.noKeyLabelled(key)) }
                let label = try child.string()
                guard keyLabelLength.contains(label.count) else { throw child.error(.keyLabelLength(count: label.count, allowed: keyLabelLength)) }
                if let missing = label.first(where: { !glyphs.contains($0) }) { throw child.error(.noGlyph(missing)) }
                s.keyLabels[key] = label
            }
        }
        return s
    }
}

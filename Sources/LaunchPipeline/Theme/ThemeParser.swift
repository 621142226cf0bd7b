import LaunchCore
import LaunchImage
import LaunchManifest

/// Reads a theme XML file (schema: `docs/theme.md`) into a ``Theme``, checking every reference.
public enum ThemeParser {
    /// Reads and parses the theme at `path`.
    public static func load(path: String) throws -> Theme {
        try parse(try FileIO.read(path, limit: .theme), file: path)
    }

    /// Parses theme XML held in memory; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(PipelineError) -> Theme {
        let tree = try SafeXMLReader.parse(bytes, file: file)
        var reader = Reader(file: file)
        return try reader.theme(tree.root)
    }

    private struct Reader {
        let file: String
        var colors: [String: RGBA] = [:]
        var gradients: [String: LinearGradient] = [:]
        var fonts: [String: FontSpec] = [:]
        var images: [String: ImageSpec] = [:]

        init(file: String) {
            self.file = file
        }

        func fail(_ node: XMLNode, _ reason: String) -> PipelineError {
            PipelineError.xml(file: file, node: node, reason)
        }

        mutating func theme(_ root: XMLNode) throws(PipelineError) -> Theme {
            guard root.isNamed("theme") else { throw fail(root, "root element must be <theme>, not <\(root.name)>") }
            let attributes = try AttributeReader(root, file: file, allowed: ["name", "version"])
            let version = try attributes.int("version", default: 1)
            guard version == 1 else { throw attributes.error("theme version \(version) is not supported (this launchprof reads version 1)") }

            let known = ["colors", "gradients", "fonts", "images", "window", "display", "key-styles", "layout", "loading-messages"]
            if let unknown = root.children.first(where: { child in !known.contains(where: { child.isNamed($0) }) }) {
                throw fail(unknown, "unknown element <\(unknown.name)> in <theme> (expected one of: \(known.sorted().joined(separator: ", ")))")
            }
            // Definitions first, in dependency order, so references can be checked as they are read.
            for node in root.children(named: "colors") { try readColors(node) }
            for node in root.children(named: "gradients") { try readGradients(node) }
            for node in root.children(named: "fonts") { try readFonts(node) }
            for node in root.children(named: "images") { try readImages(node) }

            guard let windowNode = root.child(named: "window") else { throw fail(root, "<theme> needs a <window> element") }
            guard let displayNode = root.child(named: "display") else { throw fail(root, "<theme> needs a <display> element") }
            let window = try readWindow(windowNode)
            let display = try readDisplay(displayNode)
            var styles: [String: KeyStyle] = [:]
            for node in root.children(named: "key-styles") {
                for child in node.children {
                    guard child.isNamed("key-style") else { throw fail(child, "unknown element <\(child.name)> in <key-styles> (expected <key-style>)") }
                    let style = try readKeyStyle(child)
                    guard styles[style.name] == nil else { throw fail(child, "key style '\(style.name)' is defined twice") }
                    styles[style.name] = style
                }
            }
            var layouts: [Orientation: LayoutSpec] = [:]
            for node in root.children(named: "layout") {
                let layout = try readLayout(node, styles: styles)
                guard layouts[layout.orientation] == nil else { throw fail(node, "the \(layout.orientation.rawValue) layout is defined twice") }
                layouts[layout.orientation] = layout
            }
            guard !layouts.isEmpty else { throw fail(root, "<theme> needs at least one <layout>") }
            // The loading dialog's messages, one <message text="…"/> each (at most 100, each at most 60 characters).
            var messages: [String] = []
            for node in root.children(named: "loading-messages") {
                for child in node.children {
                    guard child.isNamed("message") else { throw fail(child, "unknown element <\(child.name)> in <loading-messages> (expected <message>)") }
                    let a = try AttributeReader(child, file: file, allowed: ["text"])
                    let text = try a.string("text")
                    guard (1...60).contains(text.count) else { throw a.error("a loading message must be 1 to 60 characters, found \(text.count)") }
                    guard messages.count < 100 else { throw a.error("at most 100 loading messages") }
                    messages.append(text)
                }
            }
            var theme = Theme(
                file: file, name: attributes.optionalString("name") ?? "untitled", colors: colors, gradients: gradients,
                fonts: fonts, images: images, window: window, display: display, keyStyles: styles, layouts: layouts)
            theme.loadingMessages = messages
            return theme
        }

        // MARK: Definitions

        mutating func readColors(_ node: XMLNode) throws(PipelineError) {
            for child in node.children {
                guard child.isNamed("color") else { throw fail(child, "unknown element <\(child.name)> in <colors> (expected <color>)") }
                let a = try AttributeReader(child, file: file, allowed: ["name", "value"])
                let name = try a.string("name")
                let value = try a.string("value")
                guard let color = parseHexColor(value) ?? colors[value] else {
                    throw a.error("colour '\(name)': '\(value)' is not #rgb, #rrggbb, #rrggbbaa or a colour defined above")
                }
                guard colors[name] == nil else { throw a.error("colour '\(name)' is defined twice") }
                colors[name] = color
            }
        }

        mutating func readGradients(_ node: XMLNode) throws(PipelineError) {
            for child in node.children {
                guard child.isNamed("gradient") else { throw fail(child, "unknown element <\(child.name)> in <gradients> (expected <gradient>)") }
                let a = try AttributeReader(child, file: file, allowed: ["name", "angle"])
                let name = try a.string("name")
                var stops: [LinearGradient.Stop] = []
                for stopNode in child.children {
                    guard stopNode.isNamed("stop") else { throw fail(stopNode, "unknown element <\(stopNode.name)> in <gradient> (expected <stop>)") }
                    let s = try AttributeReader(stopNode, file: file, allowed: ["offset", "color"])
                    stops.append(.init(offset: try s.double("offset", min: 0, max: 1), color: try color(s, "color")))
                }
                guard !stops.isEmpty else { throw a.error("gradient '\(name)' needs at least one <stop>") }
                guard stops.count <= Self.maximumStops else {
                    throw a.error("gradient '\(name)' has \(stops.count) stops, more than \(Self.maximumStops)")
                }
                guard gradients[name] == nil else { throw a.error("gradient '\(name)' is defined twice") }
                gradients[name] = LinearGradient(angle: try a.double("angle", default: 90, min: -360, max: 360), stops: stops)
            }
        }

        mutating func readFonts(_ node: XMLNode) throws(PipelineError) {
            for child in node.children {
                guard child.isNamed("font") else { throw fail(child, "unknown element <\(child.name)> in <fonts> (expected <font>)") }
                let a = try AttributeReader(child, file: file, allowed: ["name", "atlas", "columns", "size", "chars"])
                let name = try a.string("name")
                let characters = a.optionalString("chars").map(Array.init) ?? FontSpec.defaultCharacters
                guard !characters.isEmpty else { throw a.error("font '\(name)': 'chars' must not be empty") }
                guard fonts[name] == nil else { throw a.error("font '\(name)' is defined twice") }
                fonts[name] = FontSpec(
                    name: name, atlas: try a.string("atlas"), columns: try a.int("columns", min: 1, max: 4096),
                    characters: characters, size: try a.double("size", min: 1, max: 1000))
            }
        }

        mutating func readImages(_ node: XMLNode) throws(PipelineError) {
            for child in node.children {
                guard child.isNamed("image") else { throw fail(child, "unknown element <\(child.name)> in <images> (expected <image>)") }
                let a = try AttributeReader(child, file: file, allowed: ["name", "src"])
                let name = try a.string("name")
                guard images[name] == nil else { throw a.error("image '\(name)' is defined twice") }
                images[name] = ImageSpec(name: name, source: try a.string("src"))
            }
        }

        // MARK: Styles

        func color(_ a: AttributeReader, _ attribute: String) throws(PipelineError) -> RGBA {
            let value = try a.string(attribute)
            guard let color = colors[value] ?? parseHexColor(value) else {
                throw a.error("attribute '\(attribute)': '\(value)' is neither a defined colour nor #rgb, #rrggbb or #rrggbbaa")
            }
            return color
        }

        func optionalColor(_ a: AttributeReader, _ attribute: String) throws(PipelineError) -> RGBA? {
            a.has(attribute) ? try color(a, attribute) : nil
        }

        func paint(_ a: AttributeReader, _ attribute: String) throws(PipelineError) -> Paint {
            let value = try a.string(attribute)
            if let gradient = gradients[value] { return .linear(gradient) }
            if let color = colors[value] ?? parseHexColor(value) { return .solid(color) }
            throw a.error("attribute '\(attribute)': '\(value)' is not a defined gradient or colour, nor a #hex colour")
        }

        func fontName(_ a: AttributeReader) throws(PipelineError) -> String {
            let name = try a.string("font")
            guard fonts[name] != nil else {
                throw a.error("unknown font '\(name)' (defined: \(fonts.keys.sorted().joined(separator: ", ")))")
            }
            return name
        }

        func readWindow(_ node: XMLNode) throws(PipelineError) -> WindowStyle {
            let a = try AttributeReader(node, file: file, allowed: ["background", "texture", "texture-opacity"])
            let texture = a.optionalString("texture")
            if let texture, images[texture] == nil { throw a.error("unknown image '\(texture)'") }
            return WindowStyle(
                background: try paint(a, "background"), texture: texture,
                textureOpacity: try a.double("texture-opacity", default: 1, min: 0, max: 1))
        }

        func readDisplay(_ node: XMLNode) throws(PipelineError) -> DisplayStyle {
            let a = try AttributeReader(
                node, file: file,
                allowed: [
                    "background", "border", "border-width", "corner-radius", "font", "text-color", "text", "padding", "text-size"
                ])
            return DisplayStyle(
                background: try paint(a, "background"), border: try optionalColor(a, "border"),
                borderWidth: try a.double("border-width", default: 0, min: 0), cornerRadius: try a.double("corner-radius", default: 0, min: 0),
                font: try fontName(a), textColor: try color(a, "text-color"), text: try text(a, "text") ?? "0",
                padding: try a.double("padding", default: 8, min: 0), textSize: try a.optionalDouble("text-size", min: 1, max: 1000),
                sourceLine: node.line, sourceColumn: node.column)
        }

        func readKeyStyle(_ node: XMLNode) throws(PipelineError) -> KeyStyle {
            let a = try AttributeReader(
                node, file: file,
                allowed: [
                    "name", "background", "border", "border-width", "corner-radius", "shadow", "shadow-offset", "shadow-blur",
                    "font", "label-color", "label-size"
                ])
            // A shadow pads every key tile by about 3 × blur + offset on each side: bounded here so a
            // tile stays near its key's size (a 4096 pt offset would allocate gigabytes).
            let offset = try a.doubles("shadow-offset", count: 2, min: -KeyStyle.maximumShadowOffset, max: KeyStyle.maximumShadowOffset) ?? [0, 0]
            return KeyStyle(
                name: try a.string("name"), background: try paint(a, "background"), border: try optionalColor(a, "border"),
                borderWidth: try a.double("border-width", default: 0, min: 0), cornerRadius: try a.double("corner-radius", default: 0, min: 0),
                shadow: try optionalColor(a, "shadow"), shadowOffset: (offset[0], offset[1]),
                shadowBlur: try a.double("shadow-blur", default: 0, min: 0, max: KeyStyle.maximumShadowBlur),
                font: try fontName(a), labelColor: try color(a, "label-color"), labelSize: try a.optionalDouble("label-size", min: 1, max: 1000))
        }

        // MARK: Layouts

        /// The most stops a gradient may have (it is sampled into 256 colours).
        static let maximumStops = 256
        /// The longest display text or key label, in characters: each is drawn glyph by glyph.
        static let maximumTextLength = 256

        /// A display text or key label, at most ``maximumTextLength`` characters.
        func text(_ a: AttributeReader, _ attribute: String) throws(PipelineError) -> String? {
            guard let text = a.optionalString(attribute) else { return nil }
            guard text.count <= Self.maximumTextLength else {
                throw a.error("attribute '\(attribute)' is \(text.count) characters long, more than \(Self.maximumTextLength)")
            }
            return text
        }

        func readLayout(_ node: XMLNode, styles: [String: KeyStyle]) throws(PipelineError) -> LayoutSpec {
            let a = try AttributeReader(
                node, file: file,
                allowed: [
                    "orientation", "rows", "columns", "insets", "margin", "spacing", "display-height", "display-spacing",
                    "min-key-width", "max-key-width", "min-key-height", "max-key-height", "equal-size"
                ])
            let orientationName = try a.string("orientation")
            guard let orientation = Orientation(rawValue: orientationName) else {
                throw a.error("orientation must be portrait or landscape, not '\(orientationName)'")
            }
            let rows = try a.int("rows", min: 1, max: 64), columns = try a.int("columns", min: 1, max: 64)
            let insets = try a.doubles("insets", count: 4, min: 0).map { EdgeInsets(top: $0[0], right: $0[1], bottom: $0[2], left: $0[3]) } ?? .zero
            var keys: [KeySpec] = []
            var occupied: [Int: Int] = [:]  // cell index -> key number
            for child in node.children {
                guard child.isNamed("key") else { throw fail(child, "unknown element <\(child.name)> in <layout> (expected <key>)") }
                let k = try AttributeReader(child, file: file, allowed: ["label", "icon", "style", "row", "column", "row-span", "column-span"])
                let style = try k.string("style")
                guard styles[style] != nil else {
                    throw k.error("unknown key style '\(style)' (defined: \(styles.keys.sorted().joined(separator: ", ")))")
                }
                let label = try text(k, "label"), icon = k.optionalString("icon")
                guard label != nil || icon != nil else { throw k.error("<key> needs a 'label' or an 'icon'") }
                if let icon, images[icon] == nil { throw k.error("unknown image '\(icon)'") }
                let row = try k.int("row", min: 0, max: rows - 1), column = try k.int("column", min: 0, max: columns - 1)
                let rowSpan = try k.int("row-span", default: 1, min: 1, max: rows - row)
                let columnSpan = try k.int("column-span", default: 1, min: 1, max: columns - column)
                for r in row..<(row + rowSpan) {
                    for c in column..<(column + columnSpan) {
                        if let other = occupied[r * columns + c] {
                            throw k.error("key overlaps key \(other + 1) of this layout at row \(r), column \(c)")
                        }
                        occupied[r * columns + c] = keys.count
                    }
                }
                keys.append(
                    KeySpec(
                        label: label, icon: icon, style: style, row: row, column: column,
                        rowSpan: rowSpan, columnSpan: columnSpan, sourceLine: child.line, sourceColumn: child.column))
            }
            let minKeyWidth = try a.double("min-key-width", default: 0, min: 0)
            let minKeyHeight = try a.double("min-key-height", default: 0, min: 0)
            return LayoutSpec(
                orientation: orientation, rows: rows, columns: columns, insets: insets,
                margin: try a.double("margin", default: 0, min: 0), spacing: try a.double("spacing", default: 0, min: 0),
                displayHeight: try a.double("display-height", default: 0, min: 0),
                displaySpacing: try a.double("display-spacing", default: 0, min: 0),
                minKeyWidth: minKeyWidth, maxKeyWidth: try a.double("max-key-width", default: .greatestFiniteMagnitude, min: minKeyWidth),
                minKeyHeight: minKeyHeight, maxKeyHeight: try a.double("max-key-height", default: .greatestFiniteMagnitude, min: minKeyHeight),
                equalSize: try a.bool("equal-size", default: false), keys: keys, sourceLine: node.line, sourceColumn: node.column)
        }
    }
}

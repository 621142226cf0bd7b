import LaunchImage

/// A decoded image and the pixel scale it was made for (2 for an `@2x` file).
public struct LoadedImage: Sendable {
    public var image: RGBAImage
    public var scale: Int
}

/// Draws the calculator UI of a ``BuiltLayout`` with a ``Theme`` into a ``Canvas``.
///
/// With `reuseKeyBackgrounds`, the background of a key (shadow, fill, border) is rendered once per
/// pixel size and style into a tile and composited for every other such key.
public struct UIRenderer {
    public let theme: Theme
    public let fonts: [String: GlyphFont]
    public let images: [String: LoadedImage]
    /// Pixels per point.
    public let scale: Double
    public let reuseKeyBackgrounds: Bool
    /// What the display shows (the calculator's value); the theme's `text` when `nil`.
    public var displayText: String?
    /// The image the window shows: its theme texture, unless the app put another there (a
    /// placeholder while it decodes, a thumbnail, or a stale image); `nil` for none.
    public var windowTexture: LoadedImage?

    /// Test only (`test.slowdown`): the key backgrounds' tiles and masks run the rows it says again
    /// (the canvas drawn on is given it by the caller).
    public var rowRepeater: RowRepeater?

    /// Key backgrounds rendered.
    public private(set) var backgroundsDrawn = 0
    /// Key backgrounds composited from an earlier rendering.
    public private(set) var backgroundsReused = 0

    private struct TileKey: Hashable {
        var width: Int, height: Int, style: String
    }

    private struct Tile {
        var image: RGBAImage
        var padding: Int
    }

    private var tiles: [TileKey: Tile] = [:]

    public init(theme: Theme, fonts: [String: GlyphFont], images: [String: LoadedImage], scale: Double, reuseKeyBackgrounds: Bool) {
        self.theme = theme
        self.fonts = fonts
        self.images = images
        self.scale = scale
        self.reuseKeyBackgrounds = reuseKeyBackgrounds
        self.windowTexture = theme.window.texture.flatMap { images[$0] }
    }

    /// Fills the window background and its texture.
    public func drawWindow(on canvas: inout Canvas) {
        let bounds = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        canvas.fillRoundedRect(bounds, radius: 0, paint: theme.window.background)
        if let texture = windowTexture {
            canvas.drawImage(texture.image, in: bounds, opacity: theme.window.textureOpacity)
        }
    }

    /// Draws the display and its text, right-aligned at the bottom like a calculator's.
    public func drawDisplay(_ layout: BuiltLayout, on canvas: inout Canvas) throws(PipelineError) {
        let style = theme.display
        let frame = layout.display.scaled(by: scale).integral
        canvas.fillRoundedRect(frame, radius: style.cornerRadius * scale, paint: style.background)
        if let border = style.border {
            canvas.strokeRoundedRect(frame, radius: style.cornerRadius * scale, lineWidth: style.borderWidth * scale, color: border)
        }
        let text = displayText ?? style.text
        let font = try font(style.font, for: text, in: "<display>", line: style.sourceLine, column: style.sourceColumn)
        let padding = style.padding * scale
        var height = (style.textSize ?? font.spec.size) * scale
        height = min(height, frame.height - 2 * padding)
        let width = font.width(of: text, height: height)
        font.draw(
            text, x: (frame.maxX - padding - width).rounded(), y: (frame.maxY - padding - height).rounded(),
            height: height, color: style.textColor, on: &canvas)
    }

    /// Draws every key: background (reused when possible), then its label or icon.
    public mutating func drawKeys(_ layout: BuiltLayout, on canvas: inout Canvas) throws(PipelineError) {
        for key in layout.keys {
            guard let style = theme.keyStyles[key.spec.style] else { continue }
            let frame = key.frame.scaled(by: scale).integral
            let tile = backgroundTile(width: max(0, frame.width.pixel), height: max(0, frame.height.pixel), style: style)
            canvas.blit(tile.image, at: (frame.x.pixel - tile.padding, frame.y.pixel - tile.padding))

            if let iconName = key.spec.icon, let icon = images[iconName] {
                let w = Double(icon.image.width) / Double(icon.scale) * scale
                let h = Double(icon.image.height) / Double(icon.scale) * scale
                let box = Rect(
                    x: (frame.x + (frame.width - w) / 2).rounded(), y: (frame.y + (frame.height - h) / 2).rounded(),
                    width: w, height: h)
                canvas.drawImage(icon.image, in: box, tint: style.labelColor)
            } else if let label = key.spec.label {
                let font = try font(
                    style.font, for: label, in: "<key label=\"\(label)\"> (style '\(style.name)')",
                    line: key.spec.sourceLine, column: key.spec.sourceColumn)
                let height = min((style.labelSize ?? font.spec.size) * scale, frame.height)
                let width = font.width(of: label, height: height)
                font.draw(
                    label, x: (frame.x + (frame.width - width) / 2).rounded(), y: (frame.y + (frame.height - height) / 2).rounded(),
                    height: height, color: style.labelColor, on: &canvas)
            }
        }
    }

    /// The font `name` for drawing `text` of `element`; errors name the theme file, line and column.
    private func font(_ name: String, for text: String, in element: String, line: Int, column: Int) throws(PipelineError) -> GlyphFont {
        guard let font = fonts[name] else {
            throw .stage(.font(theme: theme.file, line: line, column: column, element: element, font: name, .notLoaded))
        }
        let missing = font.missingCharacters(in: text)
        guard missing.isEmpty else {
            throw .stage(
                .font(theme: theme.file, line: line, column: column, element: element, font: name, .noGlyph(text: text, missing: String(missing))))
        }
        return font
    }

    private mutating func backgroundTile(width: Int, height: Int, style: KeyStyle) -> Tile {
        let key = TileKey(width: width, height: height, style: style.name)
        if reuseKeyBackgrounds, let tile = tiles[key] {
            backgroundsReused += 1
            return tile
        }
        backgroundsDrawn += 1
        let tile = renderBackground(width: width, height: height, style: style)
        if reuseKeyBackgrounds { tiles[key] = tile }
        return tile
    }

    /// Renders shadow, fill and border of a key into a transparent tile with room for the shadow.
    private func renderBackground(width: Int, height: Int, style: KeyStyle) -> Tile {
        let blur = (style.shadowBlur * scale).rounded().pixel
        let offsetX = style.shadowOffset.x * scale, offsetY = style.shadowOffset.y * scale
        let padding = style.shadow == nil ? 1 : 3 * blur + min(4096, max(abs(offsetX), abs(offsetY)).rounded(.up).pixel) + 1
        var tile = Canvas(width: width + 2 * padding, height: height + 2 * padding)
        tile.rowRepeater = rowRepeater
        let body = Rect(x: Double(padding), y: Double(padding), width: Double(width), height: Double(height))
        let radius = style.cornerRadius * scale
        if let shadow = style.shadow {
            var mask = AlphaMask(width: tile.width, height: tile.height)
            mask.addRoundedRect(
                Rect(x: body.x + offsetX, y: body.y + offsetY, width: body.width, height: body.height), radius: radius, repeater: rowRepeater)
            mask.blur(radius: blur, repeater: rowRepeater)
            tile.fillMask(mask.values, maskWidth: mask.width, origin: (0, 0), color: shadow)
        }
        tile.fillRoundedRect(body, radius: radius, paint: style.background)
        if let border = style.border {
            tile.strokeRoundedRect(body, radius: radius, lineWidth: style.borderWidth * scale, color: border)
        }
        return Tile(image: tile.image, padding: padding)
    }
}

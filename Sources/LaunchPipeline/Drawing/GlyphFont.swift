import LaunchImage

/// A bitmap font ready to draw: its ``FontSpec`` and decoded atlas.
public struct GlyphFont: Sendable {
    public let spec: FontSpec
    public let atlas: RGBAImage
    /// Size of one atlas cell in atlas pixels.
    public let cellWidth: Int
    public let cellHeight: Int
    private let cellIndex: [Character: Int]

    /// Pairs a font with its decoded atlas; the atlas must divide evenly into the font's cells.
    public init(spec: FontSpec, atlas: RGBAImage, file: String) throws(PipelineError) {
        let rows = (spec.characters.count + spec.columns - 1) / spec.columns
        guard atlas.width % spec.columns == 0, atlas.height % rows == 0, atlas.width > 0, atlas.height > 0 else {
            throw PipelineError.input(file, "font '\(spec.name)': a \(atlas.width)×\(atlas.height) atlas does not divide into \(spec.columns) columns × \(rows) rows of glyph cells")
        }
        self.spec = spec
        self.atlas = atlas
        cellWidth = atlas.width / spec.columns
        cellHeight = atlas.height / rows
        var index: [Character: Int] = [:]
        for (i, c) in spec.characters.enumerated() where index[c] == nil { index[c] = i }
        cellIndex = index
    }

    /// The characters of `text` this font has no glyph for.
    public func missingCharacters(in text: String) -> [Character] {
        text.filter { cellIndex[$0] == nil }.map { $0 }
    }

    /// Width in pixels of `text` drawn `height` pixels tall.
    public func width(of text: String, height: Double) -> Double {
        Double(text.count) * Double(cellWidth) * height / Double(cellHeight)
    }

    /// Draws `text` with its top left at (`x`, `y`), `height` pixels tall, in `color`.
    public func draw(_ text: String, x: Double, y: Double, height: Double, color: RGBA, on canvas: inout Canvas) {
        let glyphWidth = Double(cellWidth) * height / Double(cellHeight)
        var penX = x
        for character in text {
            if let i = cellIndex[character], character != " " {
                let source = Rect(x: Double((i % spec.columns) * cellWidth), y: Double((i / spec.columns) * cellHeight),
                                  width: Double(cellWidth), height: Double(cellHeight))
                canvas.drawImage(atlas, from: source, in: Rect(x: penX, y: y, width: glyphWidth, height: height), tint: color)
            }
            penX += glyphWidth
        }
    }
}

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
            throw .fontAtlas(file: file, font: spec.name, width: atlas.width, height: atlas.height, columns: spec.columns, rows: rows)
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

    /// The box of `text`'s inked pixels when drawn `height` pixels tall at the origin, measured from
    /// the glyphs' pixels (alpha above 0) as a text system measures a label's ink to centre it;
    /// `nil` when nothing is inked.
    public func inkBounds(of text: String, height: Double) -> Rect? {
        let scale = height / Double(cellHeight)
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        atlas.pixels.withUnsafeBufferPointer { pixels in
            for (n, character) in text.enumerated() {
                guard let i = cellIndex[character] else { continue }
                let originX = (i % spec.columns) * cellWidth, originY = (i / spec.columns) * cellHeight
                for y in 0..<cellHeight {
                    let row = (originY + y) * atlas.width
                    for x in 0..<cellWidth where pixels[(row + originX + x) * 4 + 3] > 0 {
                        let penX = n * cellWidth + x
                        minX = Swift.min(minX, penX); maxX = Swift.max(maxX, penX)
                        minY = Swift.min(minY, y); maxY = Swift.max(maxY, y)
                    }
                }
            }
        }
        guard minX <= maxX else { return nil }
        return Rect(x: Double(minX) * scale, y: Double(minY) * scale, width: Double(maxX - minX + 1) * scale, height: Double(maxY - minY + 1) * scale)
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
                let source = Rect(
                    x: Double((i % spec.columns) * cellWidth), y: Double((i / spec.columns) * cellHeight),
                    width: Double(cellWidth), height: Double(cellHeight))
                canvas.drawImage(atlas, from: source, in: Rect(x: penX, y: y, width: glyphWidth, height: height), tint: color)
            }
            penX += glyphWidth
        }
    }
}

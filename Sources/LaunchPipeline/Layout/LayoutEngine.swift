/// Computes view frames from a ``LayoutSpec``: the display on top, a grid of keys below it.
///
/// The rules, in order:
/// 1. The content area is the screen less the safe-area `insets`, less `margin` on every side.
/// 2. The grid gets the content height less the minimum `display-height` and `display-spacing`.
/// 3. A cell is an equal share of the grid less `spacing` between cells, clamped to
///    `min/max-key-width` and `min/max-key-height`; with `equal-size` it is square.
/// 4. The grid is centred horizontally and sits at the bottom; the display takes all height above it.
/// 5. A key spanning n cells also covers the n − 1 gaps between them.
public enum LayoutEngine {
    /// Builds the layout of `spec` on a screen of `width` × `height` points in portrait
    /// (swapped for landscape).
    public static func build(_ spec: LayoutSpec, portraitWidth width: Double, portraitHeight height: Double) throws(PipelineError) -> BuiltLayout {
        let (screenW, screenH) = spec.orientation == .portrait ? (width, height) : (height, width)
        try checkLengths(spec, screenSide: max(screenW, screenH))
        let content = Rect(
            x: spec.insets.left + spec.margin, y: spec.insets.top + spec.margin,
            width: screenW - spec.insets.left - spec.insets.right - 2 * spec.margin,
            height: screenH - spec.insets.top - spec.insets.bottom - 2 * spec.margin)
        let (cellW, cellH) = try cellSize(spec, content: content)
        let columns = Double(spec.columns), rows = Double(spec.rows)
        let gridW = columns * cellW + (columns - 1) * spec.spacing
        let gridH = rows * cellH + (rows - 1) * spec.spacing
        let gridX = content.x + (content.width - gridW) / 2
        let gridY = content.maxY - gridH
        let display = Rect(
            x: content.x, y: content.y, width: content.width,
            height: gridY - spec.displaySpacing - content.y)

        let keys = spec.keys.map { key in
            BuiltLayout.Key(
                spec: key,
                frame: Rect(
                    x: gridX + Double(key.column) * (cellW + spec.spacing),
                    y: gridY + Double(key.row) * (cellH + spec.spacing),
                    width: Double(key.columnSpan) * cellW + Double(key.columnSpan - 1) * spec.spacing,
                    height: Double(key.rowSpan) * cellH + Double(key.rowSpan - 1) * spec.spacing))
        }
        return BuiltLayout(
            orientation: spec.orientation, screenWidth: screenW, screenHeight: screenH,
            display: display, keys: keys, cellWidth: cellW, cellHeight: cellH)
    }

    /// Refuses a negative length (or one longer than the screen's longer side, `screenSide`): it would
    /// make the content larger than the screen, and every frame (and the tiles drawn for them) with
    /// it, so it is refused before anything is sized from it.
    private static func checkLengths(_ spec: LayoutSpec, screenSide: Double) throws(PipelineError) {
        let lengths: [(String, Double)] = [
            ("insets (top)", spec.insets.top), ("insets (right)", spec.insets.right), ("insets (bottom)", spec.insets.bottom),
            ("insets (left)", spec.insets.left), ("margin", spec.margin), ("spacing", spec.spacing),
            ("display-height", spec.displayHeight), ("display-spacing", spec.displaySpacing)
        ]
        for (name, value) in lengths where !(value >= 0 && value <= screenSide) {
            throw PipelineError.layout(
                orientation: spec.orientation,
                reason: "\(name) is \(value.compactRounded) pt: it must be from 0 to the screen's \(screenSide.compact) pt")
        }
    }

    /// A cell's width and height (rules 2 and 3): an equal share of the `content` area's width, and
    /// of its height less the display's, refused below the minimum key size, clamped to the maximum.
    private static func cellSize(_ spec: LayoutSpec, content: Rect) throws(PipelineError) -> (width: Double, height: Double) {
        let gridAvailableHeight = content.height - spec.displayHeight - spec.displaySpacing
        let columns = Double(spec.columns), rows = Double(spec.rows)
        let cellW = (content.width - (columns - 1) * spec.spacing) / columns
        let cellH = (gridAvailableHeight - (rows - 1) * spec.spacing) / rows
        guard cellW >= spec.minKeyWidth, cellW > 0 else {
            throw PipelineError.layout(
                orientation: spec.orientation,
                reason:
                    "keys would be \(cellW.compactRounded) pt wide, below the minimum \(spec.minKeyWidth.compact) pt: the screen is too narrow for \(spec.columns) columns"
            )
        }
        guard cellH >= spec.minKeyHeight, cellH > 0 else {
            throw PipelineError.layout(
                orientation: spec.orientation,
                reason:
                    "keys would be \(cellH.compactRounded) pt tall, below the minimum \(spec.minKeyHeight.compact) pt: the screen is too short for \(spec.rows) rows and the display"
            )
        }
        let width = min(cellW, spec.maxKeyWidth), height = min(cellH, spec.maxKeyHeight)
        return spec.equalSize ? (min(width, height), min(width, height)) : (width, height)
    }
}

extension Double {
    /// Rounded to two decimals for messages.
    var compactRounded: String { ((self * 100).rounded() / 100).compact }
}
